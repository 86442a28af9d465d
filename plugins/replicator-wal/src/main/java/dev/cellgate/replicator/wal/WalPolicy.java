package dev.cellgate.replicator.wal;

import dev.cellgate.replicator.wal.restore.PinRule;
import java.time.Duration;

/**
 * Tunables of the WAL replicator besides {@code snapshotEveryBytes} (which comes from the host's
 * {@code ReplicatorConfig}). The defaults are what the module README documents.
 *
 * @param l1EveryL0            merge this many consecutive l0 segments into one l1 segment
 * @param l1MaxBytes           merge earlier once the merged pages reach this size (memory bound);
 *                             an l0 at least this large stays alone
 * @param maxRestoreSegments   take a snapshot once a restore would read more segments than this
 * @param attachSnapshotSpans  at attach, snapshot at once when the lineage since its snapshot spans more epochs
 * @param chunkBytes           snapshot chunk size (chunks are read and written in parallel)
 * @param checkpointWalBytes   checkpoint once the WAL holds this much and every frame in it is durable
 * @param forceCheckpointBytes checkpoint at this WAL size even while uploads are in flight (the frames
 *                             are already read and held in memory, so nothing can be lost)
 * @param parallelism          concurrent bucket reads in a restore and writes of snapshot chunks
 * @param attachTimeout        bound on the bucket reads attach makes to verify a kept local copy
 * @param pins                 {@link PinRule#REFUSE}; the other values are broken variants for tests
 */
public record WalPolicy(int l1EveryL0, long l1MaxBytes, int maxRestoreSegments, int attachSnapshotSpans,
                        int chunkBytes, long checkpointWalBytes, long forceCheckpointBytes, int parallelism,
                        Duration attachTimeout, PinRule pins) {

    public WalPolicy {
        if (l1EveryL0 < 2 || l1MaxBytes < 1 || maxRestoreSegments < 2 || attachSnapshotSpans < 1 || chunkBytes < 65536
                || checkpointWalBytes < 1 || forceCheckpointBytes < checkpointWalBytes || parallelism < 1 || pins == null) {
            throw new IllegalArgumentException("invalid WAL replicator policy " + this);
        }
    }

    public static WalPolicy defaults() {
        return new WalPolicy(32, 8L << 20, 64, 4, 4 << 20, 4L << 20, 64L << 20, 16, Duration.ofSeconds(30),
                PinRule.REFUSE);
    }

    public WalPolicy withL1EveryL0(int n) {
        return new WalPolicy(n, l1MaxBytes, maxRestoreSegments, attachSnapshotSpans, chunkBytes, checkpointWalBytes,
                forceCheckpointBytes, parallelism, attachTimeout, pins);
    }

    public WalPolicy withMaxRestoreSegments(int n) {
        return new WalPolicy(l1EveryL0, l1MaxBytes, n, attachSnapshotSpans, chunkBytes, checkpointWalBytes,
                forceCheckpointBytes, parallelism, attachTimeout, pins);
    }

    public WalPolicy withChunkBytes(int n) {
        return new WalPolicy(l1EveryL0, l1MaxBytes, maxRestoreSegments, attachSnapshotSpans, n, checkpointWalBytes,
                forceCheckpointBytes, parallelism, attachTimeout, pins);
    }

    public WalPolicy withCheckpointWalBytes(long n) {
        return new WalPolicy(l1EveryL0, l1MaxBytes, maxRestoreSegments, attachSnapshotSpans, chunkBytes, n,
                Math.max(n, forceCheckpointBytes), parallelism, attachTimeout, pins);
    }

    public WalPolicy withForceCheckpointBytes(long n) {
        return new WalPolicy(l1EveryL0, l1MaxBytes, maxRestoreSegments, attachSnapshotSpans, chunkBytes, checkpointWalBytes,
                n, parallelism, attachTimeout, pins);
    }


    /** A deliberately broken variant (tests only), or {@link PinRule#REFUSE}. */
    public WalPolicy withPins(PinRule p) {
        return new WalPolicy(l1EveryL0, l1MaxBytes, maxRestoreSegments, attachSnapshotSpans, chunkBytes, checkpointWalBytes,
                forceCheckpointBytes, parallelism, attachTimeout, p);
    }
}
