package dev.cellgate.replicator.wal.replica;

import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.bucket.Parallel;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.restore.LineageListing;
import dev.cellgate.replicator.wal.restore.LineageResolver;
import dev.cellgate.replicator.wal.restore.RestorePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes lineage objects no restore can need any more.
 *
 * <p>Run only by the owner of epoch {@code N}, and only after an ownership check that followed
 * the landing of whatever covers the deleted objects (the pin, a snapshot). Then any later owner's
 * restore starts after that check, so it sees the pin and the covering objects and follows epoch
 * {@code N} from a point at or after them. What the current plan of {@code N} does not read —
 * older epochs outside its spans, segments before its snapshot or under a compaction, older
 * snapshots, stale owners' late writes — is garbage. Epochs above {@code N} are never touched.
 */
final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final LineageKeys keys;
    private final BucketReads reads;
    private final long epoch;
    private final int parallelism;

    GarbageCollector(LineageKeys keys, BucketReads reads, long epoch, int parallelism) {
        this.keys = keys;
        this.reads = reads;
        this.epoch = epoch;
        this.parallelism = parallelism;
    }

    /** Returns how many objects were deleted. */
    CompletableFuture<Integer> collect() {
        return new LineageResolver(keys, reads).resolve(epoch + 1).thenCompose(r -> {
            if (r.plan().isEmpty() || r.plan().get().tip() != epoch) {
                LOG.atWarn().setMessage("replica.gc_skipped").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                        .addKeyValue("reason", "own pin not found").log();
                return CompletableFuture.completedFuture(0);
            }
            List<String> garbage = garbage(r.listing(), r.plan().get());
            return Parallel.map(garbage, parallelism, k -> reads.store().delete(k).handle((v, err) -> err == null ? 1 : 0))
                    .thenApply(done -> {
                        int n = done.stream().mapToInt(Integer::intValue).sum();
                        LOG.atInfo().setMessage("replica.gc").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                                .addKeyValue("deleted", n).addKeyValue("failed", garbage.size() - n).log();
                        return n;
                    });
        });
    }

    /** Listed keys of epochs up to ours that the plan does not read (pure). */
    static List<String> garbage(LineageListing listing, RestorePlan plan) {
        Set<String> keep = plan.keysRead();
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, LineageListing.EpochObjects> e : listing.epochs().entrySet()) {
            if (e.getKey() > plan.tip()) {
                break;
            }
            for (ObjectKey k : e.getValue().all()) {
                boolean keepIt = keep.contains(k.key())
                        || (k.type() == ObjectKey.Type.BASE && k.epoch() == plan.tip())
                        || (k.type() == ObjectKey.Type.CHUNK && plan.snapshot() != null
                            && k.epoch() == plan.snapshot().epoch() && k.minTxid() == plan.snapshot().txid());
                if (!keepIt) {
                    out.add(k.key());
                }
            }
        }
        return out;
    }
}
