package dev.cellgate.core.deploy;

/**
 * A manifest that does not decode (not JSON, a missing field, a binding of a type this build does
 * not know) or that this build refuses to run (a compatibility flag it does not act on). Reading it
 * again will not help: a node logs it once and keeps the deployment it runs until {@code current}
 * moves.
 */
public final class MalformedManifestException extends IllegalArgumentException {
    public MalformedManifestException(String message) {
        super(message);
    }
}
