package dev.cellgate.js.graal.host;

import org.graalvm.polyglot.Value;

/**
 * The entry points the runtime scripts export on {@code internal} (see {@code dispatch.js}),
 * looked up once per context so the request path does no member lookups by name. {@code pumpOne}
 * lives in a lazily loaded file (streams): it is looked up on first use, which loads that file.
 */
public final class JsFunctions {
    private final Value internal;
    private final Value dispatchFetch;
    private final Value dispatchCall;
    private final Value dispatchAlarm;
    private final Value fireTimer;
    private Value pumpOne;
    private Value dispatchExport;
    private Value dispatchServiceFetch;
    private Value dispatchServiceCall;
    private Value dispatchScheduled;
    private Value dispatchWarmUp;

    private JsFunctions(Value internal) {
        this.internal = internal;
        this.dispatchFetch = fn(internal, "dispatchFetch");
        this.dispatchCall = fn(internal, "dispatchCall");
        this.dispatchAlarm = fn(internal, "dispatchAlarm");
        this.fireTimer = fn(internal, "fireTimer");
    }

    public static JsFunctions of(Value internal) {
        return new JsFunctions(internal);
    }

    public Value dispatchFetch() {
        return dispatchFetch;
    }

    public Value dispatchCall() {
        return dispatchCall;
    }

    public Value dispatchAlarm() {
        return dispatchAlarm;
    }

    public Value fireTimer() {
        return fireTimer;
    }

    /** The runtime's request path without the Worker's code ({@code dispatch.js}), looked up on first use. */
    public Value dispatchWarmUp() {
        if (dispatchWarmUp == null) {
            dispatchWarmUp = fn(internal, "dispatchWarmUp");
        }
        return dispatchWarmUp;
    }

    /** A call on (or the disposal of) an object this context exported by reference: {@code dispatch.js}, looked up on first use. */
    public Value dispatchExport() {
        if (dispatchExport == null) {
            dispatchExport = fn(internal, "dispatchExport");
        }
        return dispatchExport;
    }

    /** A service binding's fetch into this Worker ({@code dispatch.js}), looked up on first use. */
    public Value dispatchServiceFetch() {
        if (dispatchServiceFetch == null) {
            dispatchServiceFetch = fn(internal, "dispatchServiceFetch");
        }
        return dispatchServiceFetch;
    }

    /** A service binding's RPC call into this Worker ({@code dispatch.js}), looked up on first use. */
    public Value dispatchServiceCall() {
        if (dispatchServiceCall == null) {
            dispatchServiceCall = fn(internal, "dispatchServiceCall");
        }
        return dispatchServiceCall;
    }

    /** A cron trigger's scheduled event ({@code dispatch.js}), looked up on first use. */
    public Value dispatchScheduled() {
        if (dispatchScheduled == null) {
            dispatchScheduled = fn(internal, "dispatchScheduled");
        }
        return dispatchScheduled;
    }

    /** Called only inside a turn (it may evaluate the streams file into the context). */
    public Value pumpOne() {
        if (pumpOne == null) {
            pumpOne = fn(internal, "pumpOne");
        }
        return pumpOne;
    }

    private static Value fn(Value internal, String name) {
        Value v = internal.getMember(name);
        if (v == null || !v.canExecute()) {
            throw new IllegalStateException("the runtime scripts define no internal." + name);
        }
        return v;
    }
}
