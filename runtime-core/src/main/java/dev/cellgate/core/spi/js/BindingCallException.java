package dev.cellgate.core.spi.js;

/**
 * A binding call that failed the way the platform's API fails: the promise the wrapper returned
 * rejects with a JavaScript error of class {@code jsName} ({@code TypeError}, {@code RangeError},
 * {@code Error}…) and this message. Any other exception rejects with a plain {@code Error}.
 */
public class BindingCallException extends RuntimeException {
    private final String jsName;

    public BindingCallException(String jsName, String message) {
        super(message);
        this.jsName = jsName;
    }

    public String jsName() {
        return jsName;
    }
}
