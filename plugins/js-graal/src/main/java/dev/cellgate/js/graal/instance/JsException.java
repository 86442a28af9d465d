package dev.cellgate.js.graal.instance;

/**
 * A JavaScript error that escaped a handler: its class name ({@code TypeError}…), message and
 * JavaScript stack. The message reads like the JS {@code String(error)}; {@link #jsStack()} is
 * what a log line should print.
 */
public class JsException extends RuntimeException {
    private final String jsName;
    private final String jsMessage;
    private final String jsStack;

    public JsException(String jsName, String message, String jsStack) {
        super(jsName + ": " + message, null, false, false);
        this.jsName = jsName;
        this.jsMessage = message;
        this.jsStack = jsStack;
    }

    public String jsName() {
        return jsName;
    }

    /** The JavaScript {@code error.message}. */
    public String jsMessage() {
        return jsMessage;
    }

    public String jsStack() {
        return jsStack;
    }

    @Override
    public String toString() {
        return jsStack == null || jsStack.isEmpty() ? getMessage() : jsStack;
    }
}
