package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.LineageKeys;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists a cell's lineage objects, finds the newest pinned epoch below a bound (refusing data above
 * it that has no pin), reads its pin and plans.
 */
public final class LineageResolver {
    private static final Logger LOG = LoggerFactory.getLogger(LineageResolver.class);

    private final LineageKeys keys;
    private final BucketReads reads;
    private final PinRule pins;

    /** A listing and, when some epoch below the bound is pinned, the plan of its lineage. */
    public record Resolved(LineageListing listing, Optional<RestorePlan> plan) {
    }

    public LineageResolver(LineageKeys keys, BucketReads reads, PinRule pins) {
        this.keys = keys;
        this.reads = reads;
        this.pins = pins;
    }

    public CompletableFuture<Resolved> resolve(long below) {
        return reads.listAll(keys.root()).thenCompose(listed -> {
            LineageListing listing = LineageListing.of(keys, listed);
            if (!listing.unknownKeys().isEmpty()) {
                LOG.atWarn().setMessage("replica.unknown_keys").addKeyValue("scope", keys.scope())
                        .addKeyValue("count", listing.unknownKeys().size())
                        .addKeyValue("first", listing.unknownKeys().get(0)).log();
            }
            long tip = LineagePlanner.tip(keys.scope(), listing, below, pins);
            if (tip < 0) {
                return CompletableFuture.completedFuture(new Resolved(listing, Optional.empty()));
            }
            return readPin(tip).thenApply(base -> new Resolved(listing, Optional.of(LineagePlanner.plan(keys.scope(), listing, tip, base))));
        });
    }

    /**
     * Point-in-time recovery: the plan of the lineage of {@code epoch} up to exactly {@code txid}.
     * The epoch must still be pinned in the bucket (a collected one lies outside the retention window).
     */
    public CompletableFuture<Resolved> resolveAt(long epoch, long txid) {
        return reads.listAll(keys.root()).thenCompose(listed -> {
            LineageListing listing = LineageListing.of(keys, listed);
            if (!listing.epoch(epoch).pinned()) {
                throw new RestoreException("cell " + keys.scope() + ": the state e" + epoch + "@" + txid + " cannot be restored: e"
                        + epoch + " has no pin in the bucket (never written, or collected once it left the retention window)");
            }
            return readPin(epoch).thenApply(base -> new Resolved(listing,
                    Optional.of(LineagePlanner.planTo(keys.scope(), listing, epoch, base, txid))));
        });
    }

    /** Reads and checks the pin of {@code tip} (also for the collector's retention plans). */
    public CompletableFuture<BaseRecord> readPin(long tip) {
        String baseKey = keys.base(tip);
        return reads.get(baseKey).thenApply(found -> {
            if (found.isEmpty()) {
                throw new RestoreException("cell " + keys.scope() + ": pin " + baseKey + " was listed but is gone");
            }
            BaseRecord base;
            try {
                base = BaseRecord.fromBytes(found.get().bytes(), "pin " + baseKey);
            } catch (IllegalArgumentException e) {
                throw new RestoreException("cell " + keys.scope() + ": " + e.getMessage(), e);
            }
            if (base.epoch() != tip || !base.scope().equals(keys.scope())) {
                throw new RestoreException("cell " + keys.scope() + ": pin " + baseKey + " names cell " + base.scope()
                        + " epoch " + base.epoch());
            }
            return base;
        });
    }
}
