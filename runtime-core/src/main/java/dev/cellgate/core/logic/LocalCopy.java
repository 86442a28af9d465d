package dev.cellgate.core.logic;

import java.util.OptionalLong;

/**
 * Where an activation takes a cell's database from (SPEC §9 "restore", §10 Preserve): this node's
 * local copy, the bucket, or nowhere. The local copy is the lineage's end only when this node closed
 * it cleanly (a release or a preserve marks the epoch it held) and the acquire that just won replaced
 * exactly that epoch: then nobody held the cell since, and the bucket holds nothing the copy lacks.
 * Any other copy may be behind the bucket (another node wrote after it), so it is dropped and the
 * cell restored; never served as if current.
 */
public final class LocalCopy {
    private LocalCopy() {
    }

    /** What the activation brings up. */
    public enum Source {
        /** The local copy, as it was closed: no restore. */
        REUSE_LOCAL,
        /** Drop the local files and restore from the bucket. */
        RESTORE,
        /** Drop the local files and start empty: this node runs without replication (nothing to restore from). */
        EMPTY
    }

    /**
     * @param markedEpoch   the epoch this node's clean close of the copy recorded, empty when it has none
     * @param previousEpoch the epoch of the ownership record the acquire replaced (0: the cell had none)
     * @param replicated    a replicator is configured (the bucket holds the cell's lineage)
     */
    public static Source source(OptionalLong markedEpoch, long previousEpoch, boolean replicated) {
        if (previousEpoch > 0 && markedEpoch.isPresent() && markedEpoch.getAsLong() == previousEpoch) {
            return Source.REUSE_LOCAL;
        }
        return replicated ? Source.RESTORE : Source.EMPTY;
    }

    /** What to do when the replicator refuses to attach to what the activation brought. */
    public enum AfterRefusal {
        /** The kept copy cannot be proven to be the lineage's end: drop it and restore instead. */
        RESTORE,
        /** A restored (or empty) database was refused: there is nothing better to fall back on. */
        FAIL
    }

    public static AfterRefusal afterAttachRefused(Source brought) {
        return brought == Source.REUSE_LOCAL ? AfterRefusal.RESTORE : AfterRefusal.FAIL;
    }
}
