package dev.cellgate.deploy.dev;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM end {@code dev} through its own stop (the node drains, the listener
 * closes, "stopped" is printed, exit 0) instead of the JVM's immediate exit, which would leave the
 * node to the terminal's signal alone. The previous handlers come back when dev returns.
 */
final class StopSignals {
    private final SignalHandler oldInt;
    private final SignalHandler oldTerm;

    private StopSignals(SignalHandler oldInt, SignalHandler oldTerm) {
        this.oldInt = oldInt;
        this.oldTerm = oldTerm;
    }

    static StopSignals install(Runnable stop) {
        SignalHandler h = s -> stop.run();
        return new StopSignals(Signal.handle(new Signal("INT"), h), Signal.handle(new Signal("TERM"), h));
    }

    void restore() {
        Signal.handle(new Signal("INT"), oldInt);
        Signal.handle(new Signal("TERM"), oldTerm);
    }
}
