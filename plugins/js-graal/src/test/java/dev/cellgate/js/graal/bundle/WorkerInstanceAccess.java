package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.WorkerInstance;

/** Test access to a Worker's in-flight count (WorkerInstance has none in the SPI; cells do). */
@FunctionalInterface
public interface WorkerInstanceAccess {
    WorkerInstance worker();

    default int eventsInFlight() {
        return ((GraalWorkerInstance) worker()).eventsInFlight();
    }
}
