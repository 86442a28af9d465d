package dev.cellgate.core.spi.js;

/**
 * The host side of one binding type ({@code kv_namespace}, {@code secret_text}, …): what a Worker's
 * or a Durable Object's {@code env.NAME} is backed by. The engine knows no binding type; for each
 * {@link EnvBinding} of a deployment it asks the {@link BindingRegistry} for the provider of that
 * type (none: the deployment is refused at load, naming the binding) and, in every new instance,
 * calls {@link #open} once.
 *
 * <p>What {@code open} returns reaches JavaScript as it is when the engine has no wrapper for the
 * type: a {@code String}, number or boolean is a plain value on {@code env}. Otherwise the engine's
 * wrapper for the type (in js-graal: {@code cellgate/bindings/<type>.js}) turns the host object into
 * the JavaScript API. A host object's methods marked {@link BindingMethod} are callable from that
 * wrapper; one may return a {@link java.util.concurrent.CompletionStage}, which the wrapper turns
 * into a promise settled on the instance's executor (a stage that fails with a
 * {@link BindingCallException} rejects with that JavaScript error class).
 */
public interface BindingProvider {

    /** The type tag this provider serves. */
    String type();

    /**
     * Checks a binding's settings when a deployment loads; a bad one refuses the deployment.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    default void check(EnvBinding binding) {
    }

    /**
     * The object behind {@code env.<binding.name()>} in one instance (Worker or Durable Object).
     * Called while the instance is set up, on its thread. The host of the deployment's load check
     * may stand in for the real one until a Worker adopts it: keep {@code host} for later calls,
     * do not depend on it here.
     */
    Object open(EnvBinding binding, InstanceHost host);
}
