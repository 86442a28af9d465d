package dev.cellgate.replicator.wal.restore;

import java.util.concurrent.CancellationException;

/**
 * The caller gave up on a restore (it cancelled the returned future: an activation past its
 * deadline). From then on the restore issues no further bucket reads and never moves its file into
 * place; {@link #cancel} and the final rename exclude each other, so once {@code cancel()} has
 * returned no database appears under the target name.
 */
final class RestoreCancellation {
    private final String scope;
    private boolean cancelled;

    RestoreCancellation(String scope) {
        this.scope = scope;
    }

    synchronized void cancel() {
        cancelled = true;
    }

    /** Throws when cancelled: called before each bucket read. */
    synchronized void check() {
        if (cancelled) {
            throw new CancellationException("the restore of cell " + scope + " was cancelled by its caller");
        }
    }

    /** Runs the final step (the rename) only if not cancelled, and keeps {@link #cancel} out while it runs. */
    synchronized void unlessCancelled(IoStep step) throws java.io.IOException {
        check();
        step.run();
    }

    @FunctionalInterface
    interface IoStep {
        void run() throws java.io.IOException;
    }
}
