package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.WorkerInstance;

/** Test access to a Worker's in-flight count, through the SPI. */
@FunctionalInterface
public interface WorkerInstanceAccess {
    WorkerInstance worker();

    default int eventsInFlight() {
        return worker().eventsInFlight();
    }
}
