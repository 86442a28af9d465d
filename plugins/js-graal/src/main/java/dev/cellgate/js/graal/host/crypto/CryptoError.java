package dev.cellgate.js.graal.host.crypto;

/**
 * A WebCrypto failure the caller must see, as workerd reports it: {@code name} is the
 * DOMException name (or {@code TypeError}), {@code message} its text. The host turns it into the
 * JavaScript error of that class; anything else a crypto class throws is a bug.
 */
public final class CryptoError extends RuntimeException {
    private final String name;

    CryptoError(String name, String message) {
        super(message, null, false, false);
        this.name = name;
    }

    public String name() {
        return name;
    }

    static CryptoError operation(String message) {
        return new CryptoError("OperationError", message);
    }

    static CryptoError data(String message) {
        return new CryptoError("DataError", message);
    }

    static CryptoError notSupported(String message) {
        return new CryptoError("NotSupportedError", message);
    }
}
