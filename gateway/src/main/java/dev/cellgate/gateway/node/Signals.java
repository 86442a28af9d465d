package dev.cellgate.gateway.node;

import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT (what {@code systemctl stop}, {@code docker stop}, a Kubernetes pod delete
 * and Ctrl-C send) start the node's graceful stop instead of the JVM's immediate exit, and the
 * handler learns which signal it was for the {@code shutdown.requested} log line.
 */
final class Signals {
    private Signals() {
    }

    static void onTermination(Consumer<String> handler) {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), s -> handler.accept("SIG" + s.getName()));
        }
    }
}
