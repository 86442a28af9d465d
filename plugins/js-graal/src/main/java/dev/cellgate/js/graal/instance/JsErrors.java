package dev.cellgate.js.graal.instance;

import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/** Turns what escaped JavaScript into a Java exception that keeps the JS class, message and stack. */
public final class JsErrors {
    private JsErrors() {
    }

    public static RuntimeException from(PolyglotException e) {
        if (e.isHostException()) {
            Throwable host = e.asHostException();
            return host instanceof RuntimeException r ? r : new IllegalStateException(host.getMessage(), host);
        }
        Value error = e.getGuestObject();
        if (error != null && error.hasMembers()) {
            String name = stringMember(error, "name", "Error");
            String message = stringMember(error, "message", e.getMessage());
            String stack = stringMember(error, "stack", null);
            return new JsException(name, message, stack == null ? name + ": " + message : stack);
        }
        String text = error == null ? e.getMessage() : error.toString();
        return new JsException("Error", "Uncaught " + text, "Uncaught " + text);
    }

    private static String stringMember(Value v, String member, String fallback) {
        try {
            Value m = v.getMember(member);
            return m != null && m.isString() ? m.asString() : fallback;
        } catch (PolyglotException e) {
            return fallback;
        }
    }
}
