package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;

/**
 * {@code secret_text}: the secret's value, a string on {@code env} like a var. The node read it from
 * the bucket (the version its deployment names: {@code core/deploy/SecretStore}) when it loaded
 * the deployment. deploy-tool's load check runs without the values: a secret is not among the
 * bindings it loads.
 */
public final class SecretTextProvider implements BindingProvider {
    @Override
    public String type() {
        return SecretTextBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        if (binding.sensitive() == null) {
            throw new IllegalArgumentException("the secret's value was not resolved");
        }
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return binding.sensitive();
    }
}
