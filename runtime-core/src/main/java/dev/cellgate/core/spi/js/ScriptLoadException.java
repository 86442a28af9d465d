package dev.cellgate.core.spi.js;

/** A deployment that does not load: the message carries the JavaScript error and where it happened. */
public class ScriptLoadException extends Exception {
    public ScriptLoadException(String message) {
        super(message);
    }

    public ScriptLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
