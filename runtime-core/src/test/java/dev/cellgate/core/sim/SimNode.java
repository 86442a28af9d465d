package dev.cellgate.core.sim;

import dev.cellgate.core.fleet.DeadNodeGc;
import dev.cellgate.core.fleet.LeaseKeeper;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.fleet.Waker;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A simulated node built from the REAL fleet classes ({@link LeaseKeeper}, {@link OwnershipStore},
 * {@link DeadNodeGc}, {@link WakeIndex}, {@link Waker}) on a per-process view of the simulated
 * bucket, clock and scheduler. A crash drops the process with everything it was waiting for; a
 * self-fence is a crash with exit code 3; a supervisor restarts the node with a new session.
 */
final class SimNode {
    final Simulation sim;
    final String name;
    final SimClock clock;
    SimProcess process;
    boolean serving;
    boolean keepDown;
    int restarts;

    SimBucketView view;
    SimScheduler scheduler;
    LeaseKeeper lease;
    OwnershipStore ownership;
    WakeIndex index;
    Waker waker;
    final Map<String, SimCell> cells = new TreeMap<>();

    SimNode(Simulation sim, String name, SimClock clock) {
        this.sim = sim;
        this.name = name;
        this.clock = clock;
    }

    String session() {
        return process == null ? "-" : process.session;
    }

    boolean up() {
        return process != null && process.alive && serving;
    }

    void boot() {
        SimProcess p = new SimProcess(name, sim.newSession());
        process = p;
        serving = false;
        cells.clear();
        scheduler = new SimScheduler(sim.loop, p);
        view = new SimBucketView(sim.loop, sim.bucket, sim.faults, p, clock, () -> crash(p, "crash at an await point"), "node");
        SimBucketView gcView = new SimBucketView(sim.loop, sim.bucket, sim.faults, p, clock,
                () -> crash(p, "crash at an await point"), "gc");
        Self self = new Self(name, p.session);
        BucketStore ownershipView = switch (sim.variant) {
            case TAKEOVER_WITHOUT_LEASE_CHECK -> BrokenViews.leaseBlind(view);
            case RELEASE_FORGETS_EPOCH -> BrokenViews.forgetfulRelease(view);
            default -> view;
        };
        Liveness liveness = sim.variant == Variant.LIVENESS_WITHOUT_MARGIN
                ? Liveness.brokenWithoutMarginForTests(Simulation.MARGIN_MS) : Liveness.withSkew(Simulation.MARGIN_MS);
        ownership = new OwnershipStore(ownershipView, self, clock, liveness);
        lease = new LeaseKeeper(view, self, "sim:" + name, 1, Simulation.TTL_MS, liveness, clock, clock.monotonic(), scheduler,
                () -> LeaseRecord.Load.IDLE, cause -> crash(p, "SELF-FENCE: " + cause));
        index = new WakeIndex(view);
        DeadNodeGc gc = new DeadNodeGc(sim.variant == Variant.GC_WITHOUT_TOMBSTONE ? BrokenViews.noTombstone(gcView) : gcView,
                clock, Simulation.TICK_MS, liveness);
        waker = new Waker(view, self, clock, scheduler, Simulation.TICK_MS, index, this::wake, gc, liveness);
        sim.trace(name, "boot " + p.session);
        lease.start().whenComplete((x, e) -> sim.guard(() -> {
            if (p != process || !p.alive) {
                return;
            }
            if (e != null) {
                // another live session still holds this node id, or the bucket failed: exit, get restarted
                sim.trace(name, "start failed: " + e.getMessage());
                crash(p, "start failed");
                return;
            }
            serving = true;
            sim.checker.started(name, p.session);
            if (sim.variant != Variant.NO_WAKER) {
                waker.start();
            }
        }));
    }

    /** Kills the process (its pending answers and timers are never delivered) and lets the supervisor restart it. */
    void crash(SimProcess p, String why) {
        if (p != process || !p.alive) {
            return;
        }
        p.alive = false;
        serving = false;
        cells.clear();
        sim.trace(name, "down: " + why);
        if (!keepDown) {
            restarts++;
            sim.loop.after(sim.restartDelay(), null, () -> {
                if (process == p && !keepDown) {
                    boot();
                }
            });
        }
    }

    void pause(long ms) {
        if (process != null && process.alive) {
            process.pausedUntil = sim.loop.now() + ms;
            sim.trace(name, "paused for " + ms + " ms");
        }
    }

    /** A client request or a forwarded call arriving at this node. */
    void accept(SimCell.Work w) {
        if (!up()) {
            return; // connection refused: the caller hears nothing
        }
        if (!lease.canServe()) {
            w.reply().accept("lease expired: not serving");
            return;
        }
        SimCell c = cells.get(w.scope());
        if (c == null) {
            c = new SimCell(this, w.scope());
            cells.put(c.scope, c);
            c.submit(w);
            c.activate();
        } else {
            c.submit(w);
        }
    }

    /** Sends work to the owner's node; its answer travels back to this process. */
    void forward(String owner, SimCell.Work w) {
        SimNode target = sim.node(owner);
        SimProcess origin = process;
        Consumer<String> back = r -> sim.loop.after(sim.faults.latency(), origin, () -> w.reply().accept(r));
        SimCell.Work fwd = w.forwardedWith(back);
        sim.loop.after(sim.faults.latency(), null, () -> {
            if (target == null || !target.up()) {
                back.accept("peer " + owner + " unreachable");
            } else {
                target.accept(fwd);
            }
        });
    }

    /**
     * The waker's host call: make sure the cell's alarm is armed somewhere live, and have the cell
     * judge the due entry of {@code minuteMs} (it deletes a stale one in order with its own index writes).
     */
    CompletableFuture<WakeEntryVerdict.Reply> wake(String scope, long minuteMs) {
        CompletableFuture<WakeEntryVerdict.Reply> done = new CompletableFuture<>();
        if (up() && !cells.containsKey(scope)) {
            sim.checker.wakeActivations++;
        }
        sim.trace(name, "waker wakes " + scope.substring(scope.length() - 2) + (cells.containsKey(scope) ? " (resident)" : ""));
        accept(new SimCell.Work(SimCell.Kind.WAKE, scope, null, minuteMs, false, false, r -> {
            if (r == null) {
                done.complete(WakeEntryVerdict.Reply.KEPT);
            } else if (r.equals(SimCell.WAKE_DROPPED)) {
                done.complete(WakeEntryVerdict.Reply.DROPPED);
            } else {
                done.completeExceptionally(new IllegalStateException(r));
            }
        }));
        return done;
    }

    /** Hands one idle resident cell off (a scale-down, an eviction). */
    void releaseOne() {
        if (!up()) {
            return;
        }
        List<SimCell> idle = new ArrayList<>();
        cells.values().forEach(c -> {
            if (c.idle()) {
                idle.add(c);
            }
        });
        if (!idle.isEmpty()) {
            SimCell c = idle.get(sim.rnd.nextInt(idle.size()));
            sim.trace(name, "release " + c.scope + " e" + c.epoch);
            c.release();
        }
    }

    /** The epoch this node's live process serves {@code scope} at, or -1. */
    long believedEpoch(String scope) {
        SimCell c = up() ? cells.get(scope) : null;
        return c != null && c.phase == SimCell.Phase.SERVING ? c.epoch : -1;
    }
}
