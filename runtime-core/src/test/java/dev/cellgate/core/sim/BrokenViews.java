package dev.cellgate.core.sim;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
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
        return new Delegating(real) {
            @Override
            public CompletableFuture<Optional<StoredObject>> get(String key) {
                return Keys.nodeOfLeaseKey(key) != null ? CompletableFuture.completedFuture(Optional.empty()) : real.get(key);
            }
        };
    }

    /** For {@code DeadNodeGc}: the tombstone CAS "succeeds" without happening, so the GC deletes unconditionally. */
    static BucketStore noTombstone(BucketStore real) {
        return new Delegating(real) {
            @Override
            public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                if (Keys.nodeOfLeaseKey(key) != null && LeaseRecord.decode(bytes).isTombstone()) {
                    return CompletableFuture.completedFuture(new WriteOutcome.Written("skipped"));
                }
                return real.putIfVersion(key, bytes, version);
            }
        };
    }

    /** For {@code OwnershipStore}: a release writes {@code node:""} at epoch 1, forgetting the cell's epoch. */
    static BucketStore forgetfulRelease(BucketStore real) {
        return new Delegating(real) {
            @Override
            public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                if (key.endsWith("/own.json") && OwnershipRecord.decode(bytes).isReleased()) {
                    return real.putIfVersion(key, OwnershipRecord.released(1).encode(), version);
                }
                return real.putIfVersion(key, bytes, version);
            }
        };
    }

    private static class Delegating implements BucketStore {
        final BucketStore real;

        Delegating(BucketStore real) {
            this.real = real;
        }

        @Override
        public String url() {
            return real.url();
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            return real.get(key);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            return real.putIfAbsent(key, bytes);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
            return real.putIfVersion(key, bytes, version);
        }

        @Override
        public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
            return real.put(key, bytes);
        }

        @Override
        public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
            return real.list(prefix, cursor, limit);
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return real.delete(key);
        }
    }
}
