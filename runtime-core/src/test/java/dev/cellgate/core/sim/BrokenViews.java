package dev.cellgate.core.sim;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The broken protocol variants, each a small distortion of what one REAL component sees of the
 * bucket, so the component's own code runs and only the one safeguard is missing.
 */
final class BrokenViews {
    private BrokenViews() {
    }

    /** For {@code OwnershipStore}: every owner's lease reads as missing, so a takeover never checks it. */
    static BucketStore leaseBlind(BucketStore real) {
        return new ForwardingBucketStore(real) {
            @Override
            public CompletableFuture<Optional<StoredObject>> get(String key) {
                return Keys.nodeOfLeaseKey(key) != null ? CompletableFuture.completedFuture(Optional.empty()) : inner.get(key);
            }
        };
    }

    /** For {@code DeadNodeGc}: the tombstone CAS "succeeds" without happening, so the GC deletes unconditionally. */
    static BucketStore noTombstone(BucketStore real) {
        return new ForwardingBucketStore(real) {
            @Override
            public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                if (Keys.nodeOfLeaseKey(key) != null && LeaseRecord.decode(bytes).isTombstone()) {
                    return CompletableFuture.completedFuture(new WriteOutcome.Written("skipped"));
                }
                return inner.putIfVersion(key, bytes, version);
            }
        };
    }

    /** For {@code OwnershipStore}: a release writes {@code node:""} at epoch 1, forgetting the cell's epoch. */
    static BucketStore forgetfulRelease(BucketStore real) {
        return new ForwardingBucketStore(real) {
            @Override
            public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                if (key.endsWith("/own.json") && OwnershipRecord.decode(bytes).isReleased()) {
                    return inner.putIfVersion(key, OwnershipRecord.released(1).encode(), version);
                }
                return inner.putIfVersion(key, bytes, version);
            }
        };
    }
}
