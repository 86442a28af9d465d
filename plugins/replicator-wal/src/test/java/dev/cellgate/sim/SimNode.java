package dev.cellgate.sim;

import dev.cellgate.core.fleet.DeadNodeGc;
import dev.cellgate.core.fleet.LeaseKeeper;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.fleet.Waker;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.records.LeaseRecord;
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
    /** How long a node waits for a forwarded call's answer before it calls the call lost. */
    static final long FORWARD_TIMEOUT_MS = 2_000;
    /** Re-sends of one call after failed forwards (the router's budget). */
    static final int MAX_RESENDS = 3;
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
        Liveness liveness = sim.variant == Variant.LIVENESS_WITHOUT_MARGIN
                ? Liveness.brokenWithoutMarginForTests(Simulation.MARGIN_MS) : Liveness.withSkew(Simulation.MARGIN_MS);
        ownership = sim.variant.ownership() == null ? new OwnershipStore(view, self, clock, liveness)
                : OwnershipStore.brokenForTests(view, self, clock, liveness, sim.variant.ownership());
        lease = new LeaseKeeper(view, self, "sim:" + name, 1, Simulation.TTL_MS, liveness, clock, clock.monotonic(), scheduler,
                () -> LeaseRecord.Load.IDLE, cause -> crash(p, "SELF-FENCE: " + cause));
        index = new WakeIndex(view);
        DeadNodeGc gc = sim.variant == Variant.GC_WITHOUT_TOMBSTONE
                ? DeadNodeGc.brokenWithoutTombstoneForTests(gcView, clock, Simulation.TICK_MS, liveness)
                : new DeadNodeGc(gcView, clock, Simulation.TICK_MS, liveness);
        waker = new Waker(view, self, clock, scheduler, Simulation.TICK_MS, index, this::wake, gc, liveness, sim.wakeVerdict());
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

    /**
     * Sends work to the owner's node as the router does; its answer travels back to this process,
     * unless it is lost or the owner dies or stalls with the call (the origin times out). A failed
     * attempt goes to the REAL {@link ForwardFailure} verdict: re-sent (resolved again from here)
     * only when it provably did not run, else failed to the caller.
     */
    void forward(String owner, SimCell.Work w) {
        SimNode target = sim.node(owner);
        SimProcess origin = process;
        boolean[] settled = {false};
        Consumer<ForwardFailure.Kind> failed = kind -> {
            if (!settled[0]) {
                settled[0] = true;
                afterFailedForward(origin, owner, w, kind);
            }
        };
        Consumer<String> back = r -> {
            if (sim.faults.forwardAnswerLost()) {
                return; // the origin's timeout speaks for it
            }
            sim.loop.after(sim.faults.latency(), origin, () -> {
                if (settled[0]) {
                    return; // came after the timeout: the caller was told already
                }
                if (r != null && r.startsWith(SimCell.OWNER_ELSEWHERE)) {
                    failed.accept(ForwardFailure.Kind.NOT_OWNER); // a signed "not owner": nothing ran
                    return;
                }
                settled[0] = true;
                w.reply().accept(r); // success, or the owner's own error as it answered it
            });
        };
        sim.loop.after(FORWARD_TIMEOUT_MS, origin, () -> failed.accept(ForwardFailure.Kind.LOST_AFTER_SEND));
        sim.loop.after(sim.faults.latency(), null, () -> {
            if (target == null || !target.up()) {
                sim.loop.after(sim.faults.latency(), origin, () -> failed.accept(ForwardFailure.Kind.CONNECT_FAILED));
            } else {
                target.accept(w.forwardedWith(back));
            }
        });
    }

    private void afterFailedForward(SimProcess origin, String owner, SimCell.Work w, ForwardFailure.Kind kind) {
        ForwardFailure.Verdict v = sim.forwardPolicy().verdict(kind, w.kind() == SimCell.Kind.WAKE);
        sim.trace(name, "forward to " + owner + " failed: " + kind + " -> " + v);
        if (v == ForwardFailure.Verdict.RESEND && w.resends() < MAX_RESENDS) {
            sim.loop.after(ForwardFailure.resendDelayMs(kind), origin, () -> accept(w.resent()));
        } else {
            w.reply().accept("forward to " + owner + " failed (" + kind + "): " + v);
        }
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
