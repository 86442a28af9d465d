package dev.cellgate.core.fleet;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.LeaseDeaths;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.Placement;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this node knows of the fleet: the node leases in the bucket, refreshed periodically, and
 * single leases read on demand (where to forward, is that owner alive). The bucket is the only
 * source; this is a cache with a short lifetime, never a membership protocol.
 */
public final class FleetView {
    private static final Logger LOG = LoggerFactory.getLogger(FleetView.class);

    private final BucketStore store;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final long refreshMs;
    private final Liveness liveness;
    private final Map<String, Cached> leases = new ConcurrentHashMap<>();
    private volatile boolean stopped;
    /** Told of each peer lease seen dying ({@link LeaseDeaths}); null until {@link #onDeath} is called. */
    private volatile Consumer<LeaseRecord> onDeath;
    private volatile String selfNode;
    private Set<String> reportedDeaths = Set.of();

    private record Cached(LeaseRecord lease, long readMs) {
    }

    /** With the default clock-skew margin (tests); a node passes its configured one. */
    public FleetView(BucketStore store, Ticker ticker, Scheduler scheduler, long refreshMs) {
        this(store, ticker, scheduler, refreshMs, Liveness.withSkew(Liveness.DEFAULT_SKEW_MS));
    }

    /** @param liveness how routing and placement judge a peer's lease (the clock-skew margin, SPEC §20) */
    public FleetView(BucketStore store, Ticker ticker, Scheduler scheduler, long refreshMs, Liveness liveness) {
        this.liveness = liveness;
        this.store = store;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.refreshMs = refreshMs;
    }

    /**
     * Calls {@code listener} after a refresh for each peer lease (not {@code selfNode}'s) that is
     * dead past its expiry plus the margin, once per (node, session): the waker wakes a crashed
     * owner's alarms then, not at its next tick (SPEC §18).
     */
    public void onDeath(String selfNode, Consumer<LeaseRecord> listener) {
        this.selfNode = selfNode;
        this.onDeath = listener;
    }

    public void start() {
        refresh().whenComplete((x, e) -> scheduleRefresh());
    }

    public void stop() {
        stopped = true;
    }

    /** The next refresh: after {@code refreshMs}, or just when a peer that stopped renewing can be judged dead. */
    private void scheduleRefresh() {
        if (!stopped) {
            long in = LeaseDeaths.nextLookInMs(knownLeases(), selfNode == null ? "" : selfNode, ticker.nowMs(), refreshMs, liveness);
            scheduler.after(in, () -> refresh().whenComplete((x, e) -> scheduleRefresh()));
        }
    }

    /** Re-reads every lease under {@code nodes/}. */
    public CompletableFuture<Void> refresh() {
        return listAll(null, new ArrayList<>()).thenCompose(keys -> {
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (String k : keys) {
                String node = Keys.nodeOfLeaseKey(k);
                if (node != null) {
                    reads.add(readLease(node).thenAccept(x -> { }));
                }
            }
            leases.keySet().removeIf(n -> !keys.contains(Keys.lease(n)));
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
        }).thenRun(this::reportDeaths).exceptionally(e -> {
            LOG.atWarn().setMessage("fleet.refresh_failed").addKeyValue("error", Errors.rootMessage(e)).log();
            return null;
        });
    }

    private void reportDeaths() {
        Consumer<LeaseRecord> l = onDeath;
        if (l == null || stopped) {
            return;
        }
        List<LeaseRecord> died;
        synchronized (this) {
            LeaseDeaths.Look look = LeaseDeaths.look(knownLeases(), reportedDeaths, selfNode, ticker.nowMs(), liveness);
            reportedDeaths = look.reported();
            died = look.died();
        }
        for (LeaseRecord d : died) {
            LOG.atInfo().setMessage("fleet.lease_dead").addKeyValue("peer", d.node()).addKeyValue("session", d.session())
                    .addKeyValue("expires_ms", d.expiresMs()).log();
            try {
                l.accept(d);
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("fleet.lease_dead_listener_failed").addKeyValue("error", e.toString()).log();
            }
        }
    }

    private CompletableFuture<List<String>> listAll(String cursor, List<String> acc) {
        return store.list(Keys.NODES, cursor, 1000).thenCompose(p -> {
            acc.addAll(p.keys());
            return p.last() ? CompletableFuture.completedFuture(acc) : listAll(p.nextCursor(), acc);
        });
    }

    /** Reads one lease now (and caches it); empty when missing or malformed. */
    public CompletableFuture<Optional<LeaseRecord>> readLease(String node) {
        return store.get(Keys.lease(node)).thenApply(o -> {
            if (o.isEmpty()) {
                leases.remove(node);
                return Optional.<LeaseRecord>empty();
            }
            try {
                LeaseRecord l = LeaseRecord.decode(o.get().bytes());
                leases.put(node, new Cached(l, ticker.nowMs()));
                return Optional.of(l);
            } catch (MalformedRecordException e) {
                leases.remove(node);
                return Optional.<LeaseRecord>empty();
            }
        });
    }

    /** A lease read at most {@code maxAgeMs} ago, else read now. */
    public CompletableFuture<Optional<LeaseRecord>> lease(String node, long maxAgeMs) {
        Cached c = leases.get(node);
        if (c != null && ticker.nowMs() - c.readMs <= maxAgeMs) {
            return CompletableFuture.completedFuture(Optional.of(c.lease));
        }
        return readLease(node);
    }

    /** Every lease as last read (live or expired; missing and malformed ones are not kept), by node. */
    public List<LeaseRecord> knownLeases() {
        return leases.values().stream().map(Cached::lease).sorted(Comparator.comparing(LeaseRecord::node)).toList();
    }

    /** Whether {@code lease} may still be live now by this node's clock (its expiry plus the margin has not passed). */
    public boolean isLive(LeaseRecord lease) {
        return liveness.isLive(lease, ticker.nowMs());
    }

    /** Live leases as last read. */
    public List<LeaseRecord> liveNodes() {
        long now = ticker.nowMs();
        return leases.values().stream().map(Cached::lease).filter(l -> liveness.isLive(l, now))
                .sorted(Comparator.comparing(LeaseRecord::node)).toList();
    }

    /** A live node other than {@code self} with capacity, least loaded first; null when none. */
    public String placementTarget(String self) {
        return Placement.pick(knownLeases(), self, ticker.nowMs(), liveness).orElse(null);
    }
}
