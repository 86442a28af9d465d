package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.deploy.bindings.ServiceBinding;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Wrangler's {@code services}: {@code [{binding, service, entrypoint?, props?, remote?}]} as manifest
 * {@code service} bindings. A cellgate fleet runs ONE Worker, so only a binding to that Worker itself
 * (its default export or a named {@code WorkerEntrypoint}) can be served; {@link #requireSelf} refuses
 * every other one by name once the Worker's name is known. {@code remote} only chooses, in
 * {@code wrangler dev}, whether a binding reaches the deployed Worker: a push notes it and changes nothing.
 */
public final class ServicesKey {
    static final Set<String> FIELDS = Set.of("binding", "service", "entrypoint", "props", "remote");

    private ServicesKey() {
    }

    /** @throws IllegalArgumentException naming the entry and what is wrong with it */
    static List<ServiceBinding> parse(Object value, String where, Problems problems) {
        List<ServiceBinding> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof JsonArray a)) {
            throw new IllegalArgumentException(where + ": \"services\" must be an array of {binding, service, entrypoint?, props?}");
        }
        for (Object e : a) {
            if (!(e instanceof JsonObject o)) {
                throw new IllegalArgumentException(where + ": each of \"services\" must be an object (got " + e + ")");
            }
            for (String f : o.fieldNames()) {
                if (!FIELDS.contains(f)) {
                    throw new IllegalArgumentException(where + ": services key \"" + f + "\" is not supported (" + String.join(", ",
                            new TreeSet<>(FIELDS)) + ")");
                }
            }
            Object binding = o.getValue("binding");
            Object service = o.getValue("service");
            if (!(binding instanceof String b) || b.isEmpty() || !(service instanceof String s) || s.isEmpty()) {
                throw new IllegalArgumentException(where + ": each of \"services\" needs \"binding\" and \"service\" as strings (got " + o + ")");
            }
            Object entrypoint = o.getValue("entrypoint");
            if (entrypoint != null && (!(entrypoint instanceof String ep) || ep.isEmpty())) {
                throw new IllegalArgumentException(where + ": services binding \"" + b + "\": \"entrypoint\" must be the name of an export");
            }
            Object props = o.getValue("props");
            if (props != null && !(props instanceof JsonObject)) {
                throw new IllegalArgumentException(where + ": services binding \"" + b + "\": \"props\" must be an object (ctx.props)");
            }
            Object remote = o.getValue("remote");
            if (remote != null && !(remote instanceof Boolean)) {
                throw new IllegalArgumentException(where + ": services binding \"" + b + "\": \"remote\" must be true or false");
            }
            if (remote != null) {
                problems.note("note: services.remote has no effect on push (it chooses, in wrangler dev, whether a binding reaches the"
                        + " deployed Worker)");
            }
            out.add(new ServiceBinding(b, s, (String) entrypoint, (JsonObject) props));
        }
        return out;
    }

    /**
     * Refuses every service binding to a Worker other than {@code workerName}, all of them in one
     * message: a fleet runs one Worker, so nothing could answer such a binding.
     *
     * @return the refusal, or null when every binding names this Worker
     */
    public static String refusalOfOthers(List<? extends dev.cellgate.core.deploy.bindings.Binding> bindings, String workerName) {
        List<String> others = new ArrayList<>();
        for (dev.cellgate.core.deploy.bindings.Binding b : bindings) {
            if (b instanceof ServiceBinding s && !s.service().equals(workerName)) {
                others.add("services binding \"" + s.name() + "\" names Worker \"" + s.service() + "\"");
            }
        }
        if (others.isEmpty()) {
            return null;
        }
        return String.join("; ", others) + ": a cellgate fleet runs one Worker (\"" + workerName + "\"), so only service bindings to"
                + " that Worker itself (service: \"" + workerName + "\", its default export or a named WorkerEntrypoint) are"
                + " implemented; bindings to other Workers are not";
    }
}
