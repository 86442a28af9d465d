package dev.cellgate.core.fleet;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.NodeAuthority;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Monotonic;
import dev.cellgate.core.time.Scheduler;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A degraded node's way back (issue 29): probes the bucket with reads of its own lease record until
 * one is answered, then starts a NEW session's lease once every cell of the fenced session is gone,
 * and hands the started keeper to the node. Every decision (when to probe, when to start, what a
 * failed start means) is {@link NodeAuthority}'s; this class does the I/O and keeps one timer.
 * The node's lock is the authority object itself.
 */
public final class Rejoin {
    private static final Logger LOG = LoggerFactory.getLogger(Rejoin.class);

    /** What the node provides and learns. */
    public interface Host {
        /** A keeper for {@code self}'s lease, not started. */
        LeaseKeeper keeperFor(Self self);

        /** The keeper's lease landed: the node serves again under its session. */
        void rejoined(LeaseKeeper keeper, NodeAuthority.Rejoined rejoined);

        /** Another live process holds this node id: the node must exit (code 3). */
        void exit(String why);
    }

    private final BucketStore store;
    private final String node;
    private final NodeAuthority authority;
    private final Scheduler scheduler;
    private final Monotonic mono;
    private final Supplier<String> newSession;
    private final Host host;
    private Scheduler.Cancellable timer;
    private boolean stopped;

    public Rejoin(BucketStore store, String node, NodeAuthority authority, Scheduler scheduler, Monotonic mono,
                  Supplier<String> newSession, Host host) {
        this.store = store;
        this.node = node;
        this.authority = authority;
        this.scheduler = scheduler;
        this.mono = mono;
        this.newSession = newSession;
        this.host = host;
    }

    /** The node degraded (or a step completed): do what is due. */
    public void drive() {
        NodeAuthority.Next next;
        String session = null;
        Set<String> dead = Set.of();
        synchronized (authority) {
            if (stopped) {
                return;
            }
            long now = mono.elapsedMs();
            next = authority.next(now);
            switch (next) {
                case NodeAuthority.Next.Probe p -> authority.probeSent(p.episode(), now);
                case NodeAuthority.Next.StartSession s -> {
                    session = newSession.get();
                    authority.starting(s.episode(), session);
                    dead = authority.deadSessions();
                }
                case NodeAuthority.Next.Wait w -> later(w.ms());
                case NodeAuthority.Next.Idle i -> { }
            }
        }
        switch (next) {
            case NodeAuthority.Next.Probe p -> {
                probe(p.episode());
                drive(); // the next probe is due later: that schedules the timer
            }
            case NodeAuthority.Next.StartSession s -> start(session, dead, s.deadlineMs());
            default -> { }
        }
    }

    /** A graceful stop: nothing more is started. */
    public void stop() {
        synchronized (authority) {
            stopped = true;
            if (timer != null) {
                timer.cancel();
            }
        }
    }

    /** Called under the lock: one pending timer at a time. */
    private void later(long ms) {
        if (timer != null) {
            timer.cancel();
        }
        timer = scheduler.after(ms, this::drive);
    }

    private void probe(int episode) {
        store.get(Keys.lease(node)).whenComplete((o, e) -> {
            boolean first = false;
            synchronized (authority) {
                if (e == null) {
                    first = authority.probeAnswered(episode);
                } else {
                    authority.probeFailed(episode);
                }
            }
            if (first) {
                LOG.atInfo().setMessage("node.bucket_answers").addKeyValue("degraded_ms", degradedMs()).log();
            }
            if (e == null) {
                drive();
            }
        });
    }

    private void start(String session, Set<String> dead, long deadlineMs) {
        LeaseKeeper keeper = host.keeperFor(new Self(node, session));
        LOG.atInfo().setMessage("node.rejoining").addKeyValue("session", session).addKeyValue("replaces", dead.toString())
                .addKeyValue("degraded_ms", degradedMs()).log();
        CompletableFuture<Void> started = keeper.rejoin(dead);
        Scheduler.Cancellable deadline = scheduler.after(deadlineMs, () -> {
            if (!started.isDone()) {
                keeper.abandon();
                failed(session, false, "the start did not complete within " + deadlineMs + " ms (the bucket stalled again?)");
            }
        });
        started.whenComplete((v, e) -> {
            deadline.cancel();
            if (e == null) {
                NodeAuthority.Rejoined r;
                synchronized (authority) {
                    r = authority.sessionStarted(session, mono.elapsedMs());
                }
                if (r == null) {
                    keeper.stop(false); // abandoned meanwhile: a later start writes over its record
                    return;
                }
                host.rejoined(keeper, r);
                return;
            }
            Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            failed(session, c instanceof LeaseKeeper.HeldByAnotherSession, Errors.rootMessage(c));
        });
    }

    private void failed(String session, boolean anotherLiveSession, String why) {
        NodeAuthority.OnStartFailed f;
        synchronized (authority) {
            f = authority.startFailed(session, anotherLiveSession, why);
        }
        switch (f) {
            case NodeAuthority.OnStartFailed.Exit x -> host.exit(x.why());
            case NodeAuthority.OnStartFailed.BackToProbing b -> {
                LOG.atWarn().setMessage("node.rejoin_failed").addKeyValue("session", session).addKeyValue("error", why).log();
                drive();
            }
            case NodeAuthority.OnStartFailed.Ignore i -> { }
        }
    }

    private long degradedMs() {
        synchronized (authority) {
            return authority.degradedForMs(mono.elapsedMs());
        }
    }
}
