package dev.cellgate.core.fleet;

import dev.cellgate.core.deploy.ActiveTriggers;
import dev.cellgate.core.logic.CronClaim;
import dev.cellgate.core.logic.CronSchedule;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.CronClaimRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cron triggers, once per occurrence across the fleet (SPEC §17). Every node runs one: it sleeps
 * until the next occurrence of any trigger of the deployment it runs (at most a minute, so a new
 * deployment's triggers are seen), then for each trigger that came due reads its claim record
 * {@code crons/<worker>/<hash>.json}, asks {@link CronClaim} which occurrence (if any) to claim,
 * and claims it with a conditional write (create-only, or compare-and-swap on the version read).
 * Only the node whose write lands runs {@code scheduled()}; the others see a rejection and do
 * nothing. An ambiguous write is re-read: the run happens only if the record holds this attempt's
 * claim token. A claim that landed but whose run then fails is not retried (Cloudflare does not
 * retry a cron run either): exactly-once claims, at-most-once runs.
 */
public final class CronTicker {
    private static final Logger LOG = LoggerFactory.getLogger(CronTicker.class);
    /** The longest sleep: a new deployment's triggers (or a node back from degraded) are seen within it. */
    static final long MAX_SLEEP_MS = 60_000;

    /** What the ticker needs from its node. */
    public interface Host {
        /** The triggers of the running deployment, or null before one is loaded. */
        ActiveTriggers active();

        /** False while the node drains or is degraded: it claims nothing then. */
        boolean mayRun();

        /** Runs {@code scheduled()} for one occurrence; completes when the handler and its waitUntil have. */
        CompletableFuture<Void> run(String cron, long occurrenceMs);
    }

    private final BucketStore store;
    private final String node;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Host host;
    private final Supplier<String> claimTokens;
    private final Map<String, CronSchedule> parsed = new ConcurrentHashMap<>();
    private final Set<String> invalidLogged = ConcurrentHashMap.newKeySet();
    /** Claim key → the occurrence this node last saw claimed (by anyone): no read until a newer one is due. */
    private final Map<String, Long> seenClaimed = new ConcurrentHashMap<>();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** scheduled() runs started here and not ended: a stopping node waits for them as for requests. */
    private final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean stopped;
    private Scheduler.Cancellable timer;

    public CronTicker(BucketStore store, String node, Ticker ticker, Scheduler scheduler, Host host, Supplier<String> claimTokens) {
        this.store = store;
        this.node = node;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.host = host;
        this.claimTokens = claimTokens;
    }

    /** Looks at once (a due occurrence missed while the fleet was down is caught up now), then at each occurrence. */
    public synchronized void start() {
        schedule(0);
    }

    /** Looks now rather than at the next wake-up: a deployment was just installed. */
    public void poke() {
        schedule(0);
    }

    /** Runs of {@code scheduled()} this node started that have not ended (handler and waitUntil). */
    public int running() {
        return running.get();
    }

    public synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel();
        }
    }

    private synchronized void schedule(long delayMs) {
        if (stopped) {
            return;
        }
        if (timer != null) {
            timer.cancel();
        }
        timer = scheduler.after(delayMs, this::tick);
    }

    /** One look: claims every trigger that came due; returns when each claim (not each run) is decided. */
    public CompletableFuture<Void> tick() {
        long now = ticker.nowMs();
        ActiveTriggers active = host.active();
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        long next = now + MAX_SLEEP_MS;
        if (active != null && !active.crons().isEmpty()) {
            boolean mayRun = host.mayRun();
            for (String cron : active.crons()) {
                CronSchedule s = schedule(cron);
                if (s == null) {
                    continue;
                }
                OptionalLong n = s.nextAfter(now);
                if (n.isPresent()) {
                    next = Math.min(next, n.getAsLong());
                }
                if (mayRun) {
                    all = CompletableFuture.allOf(all, consider(active, s, now));
                }
            }
        }
        // Wake a little after the occurrence's minute starts, never before it (a timer may fire early by a tick).
        schedule(Math.max(10, next - ticker.nowMs() + 5));
        return all;
    }

    private CronSchedule schedule(String cron) {
        CronSchedule s = parsed.get(cron);
        if (s != null) {
            return s;
        }
        try {
            s = CronSchedule.parse(cron);
            parsed.put(cron, s);
            return s;
        } catch (IllegalArgumentException e) {
            // deploy-tool refuses these; a manifest written by hand could still carry one
            if (invalidLogged.add(cron)) {
                LOG.atError().setMessage("cron.invalid").addKeyValue("cron", cron).addKeyValue("error", e.getMessage()).log();
            }
            return null;
        }
    }

    private CompletableFuture<Void> consider(ActiveTriggers active, CronSchedule s, long now) {
        String key = Keys.cronClaim(active.worker(), s.expression());
        Long seen = seenClaimed.get(key);
        if (CronClaim.toClaim(s, seen == null ? OptionalLong.empty() : OptionalLong.of(seen), now, active.sinceMs()).isEmpty()
                || !inFlight.add(key)) {
            return CompletableFuture.completedFuture(null);
        }
        return store.get(key).thenCompose(cur -> claim(key, active, s, now, cur)).handle((x, e) -> {
            inFlight.remove(key);
            if (e != null) {
                LOG.atWarn().setMessage("cron.claim_failed").addKeyValue("cron", s.expression()).addKeyValue("error", String.valueOf(e)).log();
            }
            return null;
        });
    }

    private CompletableFuture<Void> claim(String key, ActiveTriggers active, CronSchedule s, long now, Optional<StoredObject> cur) {
        OptionalLong last = OptionalLong.empty();
        if (cur.isPresent()) {
            try {
                last = OptionalLong.of(CronClaimRecord.decode(cur.get().bytes()).occurrenceMs());
            } catch (MalformedRecordException e) {
                // replaced by CAS on its version below: a broken record must not stop the trigger for good
                LOG.atWarn().setMessage("cron.malformed_claim").addKeyValue("key", key).addKeyValue("error", e.getMessage()).log();
            }
        }
        OptionalLong occ = CronClaim.toClaim(s, last, now, active.sinceMs());
        if (occ.isEmpty()) {
            last.ifPresent(l -> seenClaimed.merge(key, l, Math::max));
            return CompletableFuture.completedFuture(null);
        }
        long occurrence = occ.getAsLong();
        CronClaimRecord mine = new CronClaimRecord(s.expression(), occurrence, node, claimTokens.get());
        CompletableFuture<WriteOutcome> write = cur.isEmpty() ? store.putIfAbsent(key, mine.encode())
                : store.putIfVersion(key, mine.encode(), cur.get().version());
        return write.thenCompose(o -> switch (o) {
            case WriteOutcome.Written w -> CompletableFuture.completedFuture(true);
            case WriteOutcome.Rejected r -> CompletableFuture.completedFuture(false);
            // the write may have landed: it did exactly when the record now holds this attempt's token
            case WriteOutcome.Ambiguous a -> store.get(key).thenApply(back -> back.isPresent() && isMine(back.get(), mine));
        }).thenAccept(won -> {
            seenClaimed.merge(key, occurrence, Math::max);
            if (won) {
                run(active, s.expression(), occurrence);
            }
        });
    }

    private static boolean isMine(StoredObject o, CronClaimRecord mine) {
        try {
            return CronClaimRecord.decode(o.bytes()).claim().equals(mine.claim());
        } catch (MalformedRecordException e) {
            return false;
        }
    }

    private void run(ActiveTriggers active, String cron, long occurrence) {
        long t0 = ticker.nowMs();
        LOG.atInfo().setMessage("cron.claimed").addKeyValue("cron", cron).addKeyValue("scheduled_time", occurrence)
                .addKeyValue("deployment", active.deploymentId()).addKeyValue("late_ms", t0 - occurrence).log();
        CompletableFuture<Void> f;
        running.incrementAndGet();
        try {
            f = host.run(cron, occurrence);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((x, e) -> {
            running.decrementAndGet();
            if (e == null) {
                LOG.atInfo().setMessage("cron.ran").addKeyValue("cron", cron).addKeyValue("scheduled_time", occurrence)
                        .addKeyValue("ms", ticker.nowMs() - t0).log();
            } else {
                Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
                // as on Cloudflare: a failed run (a JS error, no scheduled handler) is logged, not retried
                LOG.atError().setMessage("cron.failed").addKeyValue("cron", cron).addKeyValue("scheduled_time", occurrence)
                        .addKeyValue("error", String.valueOf(c.getMessage())).log();
            }
        });
    }
}
