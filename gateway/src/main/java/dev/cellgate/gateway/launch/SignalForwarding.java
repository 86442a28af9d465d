package dev.cellgate.gateway.launch;

import sun.misc.Signal;

/**
 * In the launcher: SIGTERM and SIGINT go to the child as SIGTERM (its graceful stop), and the
 * launcher keeps waiting for the child's exit code: its wait is unbounded, so it always outlasts
 * the child's own drain deadline.
 */
final class SignalForwarding {
    private SignalForwarding() {
    }

    static void install(Process child) {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), s -> child.destroy());
        }
    }
}
