package dev.cellgate.core.spi.js;

import java.util.Set;

/** A compiled deployment: a factory of Worker and Durable Object instances. */
public interface LoadedScript extends AutoCloseable {

    ScriptBundle bundle();

    /** Names of the classes the main module exports (Durable Object candidates). */
    Set<String> exportedClasses();

    /**
     * A stateless Worker instance (its own JavaScript context). The host may create several
     * (e.g. one per event-loop thread) and sends each one event at a time on {@link InstanceHost#executor()}.
     */
    WorkerInstance newWorker(InstanceHost host);

    /**
     * Constructs a Durable Object of {@code className} for one cell. Runs the class constructor;
     * must be called on {@link CellHost#executor()}.
     */
    CellInstance newCell(String className, CellIdentity id, CellHost host) throws ScriptLoadException;

    @Override
    void close();
}
