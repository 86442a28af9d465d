package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.core.logic.PitrHistory;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.restore.CommitHistory;
import dev.cellgate.replicator.wal.restore.LineageListing;
import dev.cellgate.replicator.wal.restore.LineagePlanner;
import dev.cellgate.replicator.wal.restore.LineageResolver;
import dev.cellgate.replicator.wal.restore.PinRule;
import dev.cellgate.replicator.wal.restore.RestorePlan;
import dev.cellgate.replicator.wal.restore.Retention;
import dev.cellgate.replicator.wal.restore.RetentionKeep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deletes lineage objects no restore can need any more.
 *
 * <p>Run only by the owner of epoch {@code N}, and only after an ownership check that followed
 * the landing of whatever covers the deleted objects (the pin, a snapshot). Then any later owner's
 * restore starts after that check, so it sees the pin and the covering objects and follows epoch
 * {@code N} from a point at or after them. What the current plan of {@code N} does not read —
 * older epochs outside its spans, segments before its snapshot or under a compaction, older
 * snapshots, stale owners' late writes — is garbage. Epochs above {@code N} are never touched.
 *
 * <p>Never data of a lineage it could not read: data without a pin between the point {@code N}
 * continues from and {@code N} stops the whole pass ({@link LineagePlanner#gcRefusal}). So that its
 * own deletions never create such data, an epoch's pin goes last, once every other garbage object
 * of that epoch is gone; the epochs whose pins it deleted are remembered, as a stale owner may
 * still land a late write there.
 */
final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final LineageKeys keys;
    private final BucketReads reads;
    private final long epoch;
    private final int parallelism;
    private final PinRule pins;
    private final Set<Long> retired = ConcurrentHashMap.newKeySet();
    private final Retention retention;

    GarbageCollector(LineageKeys keys, BucketReads reads, long epoch, int parallelism, PinRule pins, Retention retention) {
        this.retention = retention;
        this.keys = keys;
        this.reads = reads;
        this.epoch = epoch;
        this.parallelism = parallelism;
        this.pins = pins;
    }

    /** Returns how many objects were deleted. */
    CompletableFuture<Integer> collect() {
        LineageResolver resolver = new LineageResolver(keys, reads, pins);
        return resolver.resolve(epoch + 1).thenCompose(r -> {
            if (r.plan().isEmpty() || r.plan().get().tip() != epoch) {
                return skipped("own pin not found");
            }
            Optional<String> refusal = LineagePlanner.gcRefusal(keys.scope(), r.listing(), r.plan().get(), Set.copyOf(retired), pins);
            if (refusal.isPresent()) {
                return skipped(refusal.get());
            }
            return retained(resolver, r.listing(), r.plan().get()).thenCompose(kept -> kept.isEmpty()
                    ? skipped("a state inside the retention window cannot be planned: nothing is deleted")
                    : deleteGarbage(garbage(r.listing(), r.plan().get(), kept.get())));
        });
    }

    /**
     * What the retention window needs besides the current plan (nothing when retention is off); empty
     * when some epoch's states in the window cannot be planned (then deleting anything could lose them).
     */
    private CompletableFuture<Optional<RetentionKeep>> retained(LineageResolver resolver, LineageListing listing, RestorePlan plan) {
        RetentionKeep keep = new RetentionKeep();
        if (!retention.on()) {
            return CompletableFuture.completedFuture(Optional.of(keep));
        }
        Map<Long, Long> floors = PitrHistory.floors(CommitHistory.of(listing), retention.windowStartMs());
        // newer epochs are never touched; unpinned data is the guard's business
        List<Long> epochs = floors.keySet().stream().filter(e -> e <= plan.tip() && listing.epoch(e).pinned()).toList();
        // One pin read per epoch that wrote inside the window (in parallel): the cost of retention per pass.
        CompletableFuture<List<BaseRecord>> pins = AsyncLimiter.map(epochs, parallelism,
                e -> e == plan.tip() ? CompletableFuture.completedFuture(plan.base()) : resolver.readPin(e));
        return pins.thenAccept(bases -> {
            for (int i = 0; i < epochs.size(); i++) {
                keep.keepFrom(keys.scope(), listing, epochs.get(i), bases.get(i), floors.get(epochs.get(i)));
            }
        }).handle((x, err) -> {
            if (err != null) {
                LOG.atWarn().setMessage("replica.gc_retention_unplanned").addKeyValue("scope", keys.scope())
                        .addKeyValue("epoch", epoch).addKeyValue("error", err.getMessage()).log();
                return Optional.empty();
            }
            return Optional.of(keep);
        });
    }

    private CompletableFuture<Integer> deleteGarbage(Garbage g) {
        return delete(g.data()).thenCompose(failed -> {
            // A pin goes only once the rest of its epoch's garbage is gone (never unpinned leftovers).
            Map<Long, String> pinsNow = new TreeMap<>(g.pins());
            pinsNow.keySet().removeAll(failed);
            return delete(List.copyOf(pinsNow.values())).thenApply(pinFailed -> {
                pinsNow.keySet().removeAll(pinFailed);
                retired.addAll(pinsNow.keySet());
                int deleted = g.data().size() - failed.size() + pinsNow.size();
                LOG.atInfo().setMessage("replica.gc").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                        .addKeyValue("deleted", deleted).addKeyValue("failed", g.data().size() + g.pins().size() - deleted).log();
                return deleted;
            });
        });
    }

    private CompletableFuture<Integer> skipped(String reason) {
        LOG.atWarn().setMessage("replica.gc_skipped").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                .addKeyValue("reason", reason).log();
        return CompletableFuture.completedFuture(0);
    }

    /** Deletes the keys; completes with the epochs of the keys that could not be deleted (one entry per failure). */
    private CompletableFuture<List<Long>> delete(List<String> garbage) {
        return AsyncLimiter.map(garbage, parallelism, k -> reads.store().delete(k).handle((v, err) -> err == null ? -1L : epochOf(k)))
                .thenApply(done -> done.stream().filter(e -> e >= 0).toList());
    }

    private long epochOf(String key) {
        ObjectKey o = keys.parse(key);
        return o == null ? -1 : o.epoch();
    }

    /** Garbage of one pass: pins by epoch (deleted last), everything else. */
    record Garbage(List<String> data, Map<Long, String> pins) {
    }

    /** Listed keys of epochs up to ours that neither the plan nor the retention window needs (pure). */
    static Garbage garbage(LineageListing listing, RestorePlan plan, RetentionKeep retained) {
        Set<String> keep = plan.keysRead();
        List<String> data = new ArrayList<>();
        Map<Long, String> pins = new TreeMap<>();
        for (Map.Entry<Long, LineageListing.EpochObjects> e : listing.epochs().entrySet()) {
            if (e.getKey() > plan.tip()) {
                break;
            }
            for (ObjectKey k : e.getValue().all()) {
                boolean keepIt = keep.contains(k.key()) || retained.keeps(k)
                        || (k.type() == ObjectKey.Type.BASE && k.epoch() == plan.tip())
                        || (k.type() == ObjectKey.Type.CHUNK && plan.snapshot() != null
                            && k.epoch() == plan.snapshot().epoch() && k.minTxid() == plan.snapshot().txid());
                if (keepIt) {
                    continue;
                }
                if (k.type() == ObjectKey.Type.BASE) {
                    pins.put(k.epoch(), k.key());
                } else {
                    data.add(k.key());
                }
            }
        }
        return new Garbage(data, pins);
    }
}
