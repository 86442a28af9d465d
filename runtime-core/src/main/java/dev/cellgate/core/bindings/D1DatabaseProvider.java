package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;

/**
 * {@code d1}: a D1 database. The host side only names the database's cell ({@link D1Cells}): the
 * engine's wrapper ({@code bindings/d1.js} in js-graal) reaches it through the ordinary Durable
 * Object stub path, so routing, ownership, the output gate and replication are the cells' own.
 * {@link #open} returns the cell scope, {@code <class>:<hex>}.
 */
public final class D1DatabaseProvider implements BindingProvider {
    @Override
    public String type() {
        return D1DatabaseBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        String id = text(binding, "database_id");
        String name = text(binding, "database_name");
        if (id == null && name == null) {
            throw new IllegalArgumentException("a D1 binding needs a database_id (or, without one, a database_name)");
        }
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        check(binding);
        return D1Cells.scopeOf(text(binding, "database_id"), text(binding, "database_name"));
    }

    private static String text(EnvBinding binding, String key) {
        Object v = binding.settings().getValue(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("\"" + key + "\" of a D1 binding must be a non-empty string (got " + v + ")");
        }
        return s;
    }
}
