package dev.cellgate.js.graal.host;

import org.graalvm.polyglot.Value;

/**
 * The entry points the runtime scripts export on {@code internal} (see {@code dispatch.js}),
 * looked up once per context so the request path does no member lookups by name.
 */
public record JsFunctions(Value dispatchFetch, Value dispatchCall, Value dispatchAlarm, Value constructCell,
                          Value fireTimer, Value pumpOne) {
    public static JsFunctions of(Value internal) {
        return new JsFunctions(fn(internal, "dispatchFetch"), fn(internal, "dispatchCall"), fn(internal, "dispatchAlarm"),
                fn(internal, "constructCell"), fn(internal, "fireTimer"), fn(internal, "pumpOne"));
    }

    private static Value fn(Value internal, String name) {
        Value v = internal.getMember(name);
        if (v == null || !v.canExecute()) {
            throw new IllegalStateException("the runtime scripts define no internal." + name);
        }
        return v;
    }
}
