package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;

/**
 * {@code secret_text}: the secret's value, a string on {@code env} like a var. The node read and
 * (with {@code CELLD_SECRETS_KEY}) unsealed it when it loaded the deployment; deploy-tool's load
 * check, which runs before anything is read from the bucket, sees an empty string.
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
