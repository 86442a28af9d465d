package dev.cellgate.core.spi.replication;

import dev.cellgate.core.logic.Bookmark;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Ships each cell's committed SQLite changes to the bucket under the cell's epoch prefix
 * ({@code cells/<scope>/…/e<epoch>/…}) and rebuilds a database from there.
 */
public interface Replicator {

    /**
     * Rebuilds the newest lineage of {@code scope} below {@code acquiredEpoch} into {@code dbFile}
     * (which must not exist): the newest epoch with data, its full contiguous chain, every
     * checksum verified. Data a stale owner wrote late under an old epoch is never taken as the
     * current lineage (the replicator pins each epoch's starting point when it attaches).
     * Completes with what was read; fails with {@link RestoreException} on a gap or corruption,
     * never leaving a partial database behind. A cell with no data completes with
     * {@link RestoreResult#empty()} and creates no file. The caller may cancel the returned future
     * (an activation past its deadline): the replicator then starts no further bucket read and never
     * creates {@code dbFile} after {@code cancel} returned.
     */
    CompletableFuture<RestoreResult> restore(String scope, long acquiredEpoch, Path dbFile);

    /**
     * Starts replicating an open cell database at {@code epoch}, the epoch this node acquired.
     * The database must be in WAL mode with automatic checkpoints off, and hold exactly what
     * {@link #restore} produced for this epoch, or a local copy this node kept from the epoch
     * just before (no takeover in between).
     *
     * @param cellExecutor the cell's serial executor: the replicator reads WAL frames and
     *                     checkpoints only there, so it never races the cell's own connection
     * @param ownership    asked once per upload whether this node still owns the cell at
     *                     {@code epoch}; a "no" fails the pending commits
     * @param checkpoint   checkpoints through the cell's own connection, which must stay open
     *                     until {@link CellReplica#detach()} returns
     */
    CellReplica attach(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                       WalCheckpoint checkpoint);

    /**
     * Point-in-time recovery (SPEC §22): like {@link #restore}, but rebuilds the state {@code target}
     * names instead of the newest one. The epoch that attaches next continues from that point: a new
     * lineage, while the history after it stays in the bucket (within the retention window) so that
     * the restore can be undone. Fails with {@link RestoreException} naming why the point cannot be
     * rebuilt (outside the window, collected, never existed).
     */
    default CompletableFuture<RestoreResult> restoreTo(String scope, long acquiredEpoch, Path dbFile, Bookmark target) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                "point-in-time recovery is not supported by the replicator " + getClass().getSimpleName()));
    }

    /**
     * Whether {@link #restoreTo} could rebuild {@code target} now (window, pin, segments), without
     * reading any data: completes normally, or fails with the {@link RestoreException} it would throw.
     * A restore request is checked before it is recorded, so an activation does not meet it first.
     */
    default CompletableFuture<Void> checkRestorable(String scope, Bookmark target) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                "point-in-time recovery is not supported by the replicator " + getClass().getSimpleName()));
    }

    /**
     * The bookmark of the state {@code scope} had at {@code timeMs} (SPEC §22), from the bucket's
     * history; fails with {@link IllegalArgumentException} for a time outside the retention window.
     */
    default CompletableFuture<Bookmark> bookmarkForTime(String scope, long timeMs) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                "point-in-time recovery is not supported by the replicator " + getClass().getSimpleName()));
    }
}
