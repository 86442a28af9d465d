package dev.cellgate.core.spi.replication;

import dev.cellgate.core.logic.Bookmark;
import java.util.concurrent.CompletableFuture;

/** Replication of one attached cell database. All methods are called on the cell's executor. */
public interface CellReplica {

    /**
     * Called right after a local commit. Returns a future that completes when that commit (and
     * everything before it) is durable in the bucket and ownership was confirmed. Commits made
     * while an upload runs share the next upload (group commit). It fails with
     * {@link CommitOutcomeUnknownException} when the commit may be in the bucket all the same (its
     * upload had started), with another exception when the commit never left the node.
     */
    CompletableFuture<Void> committed();

    /** Everything committed so far is durable: the future a final release waits on. */
    CompletableFuture<Void> flush();

    /** Stops replicating (after {@link #flush()} on a clean release; without it on fencing). */
    void detach();

    /**
     * Bytes uploaded so far, and the commit lag in bytes not yet durable (for metrics). Unlike the
     * other methods this one may be called from any thread (a metrics scrape), also after
     * {@link #detach()}: it must be thread-safe and cheap.
     */
    ReplicaStats stats();

    /**
     * The point the lineage has reached, stamped {@code nowMs}: the pinned epoch of this replica and the
     * last transaction it read from the WAL. Once {@link #flush()} completed, that is the durable end,
     * the state {@code storage.getCurrentBookmark()} names. Called on the cell's executor.
     */
    default Bookmark currentBookmark(long nowMs) {
        throw new UnsupportedOperationException("point-in-time recovery is not supported by " + getClass().getSimpleName());
    }
}
