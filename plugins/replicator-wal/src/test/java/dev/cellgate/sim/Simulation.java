package dev.cellgate.sim;

import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.restore.PinRule;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One seeded run. A fault phase (client traffic, crashes at any instant and at await points, SIGSTOP
 * pauses longer than the TTL, handoffs, throttling, lost requests and answers, lost answers to
 * forwarded calls, latency spikes, wall clocks up to a TTL off that drift and step forward and BACK,
 * in a quarter of the seeds a pin the store loses), then a quiet phase (latency only, clocks corrected, crashed nodes restarted
 * except the ones kept down), then a final round
 * of writes to every cell from every live node, then the end-of-run properties. The same seed
 * replays the same run exactly: one random source, one thread, events ordered by (time, sequence).
 */
final class Simulation {
    static final long TTL_MS = 4_500;
    static final long TICK_MS = 2_000;
    /** {@code CELLD_CLOCK_SKEW_MS} as a node with this TTL gets it by default. */
    static final long MARGIN_MS = Liveness.defaultSkewMs(TTL_MS);
    /**
     * How far a wall clock may be from true time. Half the seeds keep every clock within the margin
     * (so two clocks differ by at most twice the margin: what the lease rules are built to tolerate,
     * and where "an owner stops serving before its cell is taken over" is judged); the other half let
     * clocks wander ±TTL, where only the clock-independent properties and the lease rules hold.
     */
    static final long WILD_SKEW_MS = TTL_MS;
    static final long FAULT_MS = 15_000;
    /** Long enough for leases of crashed nodes to expire and every alarm (due by +8 s into it) to be woken and fire. */
    static final long QUIET_MS = 15_000;
    static final long FINAL_MS = 5_000;
    static final long MAX_EVENTS = 2_000_000;

    final long seed;
    final Variant variant;
    final SplittableRandom rnd;
    final EventLoop loop;
    final Checker checker;
    final SimBucket bucket;
    final Faults faults;
    final List<SimNode> nodes = new ArrayList<>();
    final List<String> scopes = new ArrayList<>();
    /** Every wall clock stays within ±{@link #MARGIN_MS} of true time in this seed. */
    final boolean clocksWithinMargin;
    /** Where this run's restores rebuild their database files. */
    final java.nio.file.Path dbDir = SimDatabase.newRunDir();
    private final long start;
    private final ArrayDeque<String> trace;
    private long requestIds;
    private final List<String> finalFailures = new ArrayList<>();
    /** Cells whose newest pin the store lost during the faults (issue 30's damage, outside the protocol). */
    final java.util.Set<String> pinsLost = new java.util.TreeSet<>();

    /** What a run found. {@code failure} is null when every property held. */
    record Result(long seed, SimFailure failure, long failedAtMs, long events, long acks, long takeovers, int restarts,
                  long wakeActivations, long alarmsFired, long casRejected, List<String> trace) {
    }

    Simulation(long seed, Variant variant, boolean tracing) {
        this.seed = seed;
        this.variant = variant;
        this.rnd = new SplittableRandom(seed);
        this.start = 1_700_000_000_000L + rnd.nextLong(1_000_000_000L);
        this.loop = new EventLoop(start);
        this.clocksWithinMargin = rnd.nextBoolean();
        this.checker = new Checker(MARGIN_MS, TTL_MS, new Checker.World() {
            @Override
            public SimClock clock(String node) {
                return node(node).clock;
            }

            @Override
            public boolean clocksWithinMargin() {
                return clocksWithinMargin;
            }

            @Override
            public boolean stillServes(String node, String session, String scope) {
                SimNode n = node(node);
                return n != null && n.up() && n.session().equals(session) && n.lease.canServe() && n.believedEpoch(scope) >= 0;
            }
        });
        this.bucket = new SimBucket(loop, checker);
        this.faults = new Faults(rnd, start, FAULT_MS);
        this.trace = tracing ? new ArrayDeque<>() : null;
        if (tracing) {
            checker.tracer = this::trace;
        }
    }

    Result run() {
        int nodeCount = 3 + rnd.nextInt(2);
        for (int i = 0; i < nodeCount; i++) {
            SimClock clock = clock();
            SimNode n = new SimNode(this, "n" + i, clock);
            nodes.add(n);
            loop.at(start + rnd.nextLong(500), null, n::boot);
        }
        int cellCount = 2 + rnd.nextInt(2);
        for (int i = 0; i < cellCount; i++) {
            scopes.add("Sim:" + HexFormat.of().formatHex(longBytes(seed)) + String.format("%048x", i));
        }
        scheduleFaultPhase();
        loop.at(start + FAULT_MS, null, this::quiet);
        loop.at(start + FAULT_MS + QUIET_MS, null, this::finalRound);
        try {
            loop.runUntil(start + FAULT_MS + QUIET_MS + FINAL_MS, MAX_EVENTS, () -> checker.failure() != null);
            if (checker.failure() == null) {
                FinalChecks.run(this, finalFailures);
            }
        } catch (SimFailure f) {
            checker.fail(f.property, f.getMessage(), loop.now());
        } catch (RuntimeException e) {
            checker.fail("simulator error", stack(e), loop.now());
        } finally {
            SimDatabase.deleteRunDir(dbDir);
        }
        int restarts = nodes.stream().mapToInt(n -> n.restarts).sum();
        return new Result(seed, checker.failure(), checker.failureAt() - start, loop.executed(), checker.acks,
                checker.takeovers, restarts, checker.wakeActivations, checker.alarmsFired, checker.casRejected, trace == null ? List.of() : List.copyOf(trace));
    }

    /**
     * A wall clock for one node: an offset, a drift, a few steps forward or back during the faults,
     * and a correction to within half the margin when they stop (so the fleet can settle).
     */
    private SimClock clock() {
        long bound = clocksWithinMargin ? MARGIN_MS : WILD_SKEW_MS;
        SimClock c = new SimClock(loop, rnd.nextLong(-bound, bound + 1), rnd.nextDouble(-200, 200), bound);
        int steps = rnd.nextInt(4);
        for (int i = 0; i < steps; i++) {
            c.stepAt(start + rnd.nextLong(FAULT_MS), rnd.nextLong(-bound, bound + 1));
        }
        return c.setAt(start + FAULT_MS, rnd.nextLong(-MARGIN_MS / 2, MARGIN_MS / 2 + 1));
    }

    private void scheduleFaultPhase() {
        if (rnd.nextInt(4) == 0) {
            loop.at(start + 2_000 + rnd.nextLong(FAULT_MS - 4_000), null, () -> losePin(scopes.get(rnd.nextInt(scopes.size()))));
        }
        for (long t = start + 300; t < start + FAULT_MS; t += 50 + rnd.nextLong(700)) {
            loop.at(t, null, this::randomRequest);
        }
        for (SimNode n : nodes) {
            for (long t = start + exp(9_000); t < start + FAULT_MS; t += exp(9_000)) {
                loop.at(t, null, () -> {
                    if (n.process != null) {
                        n.crash(n.process, "SIGKILL");
                    }
                });
            }
            for (long t = start + exp(20_000); t < start + FAULT_MS; t += exp(20_000)) {
                long ms = 300 + rnd.nextLong(5_000);
                loop.at(t, null, () -> n.pause(ms));
            }
            for (long t = start + exp(2_500); t < start + FAULT_MS; t += exp(2_500)) {
                loop.at(t, null, n::releaseOne);
            }
        }
    }

    private void randomRequest() {
        String scope = scopes.get(rnd.nextInt(scopes.size()));
        int kind = rnd.nextInt(100);
        Request r = kind < 70 ? new Request(++requestIds, scope, Request.Op.WRITE, 0)
                : kind < 92 ? new Request(++requestIds, scope, Request.Op.SET_ALARM, loop.now() + 300 + rnd.nextLong(8_000))
                : new Request(++requestIds, scope, Request.Op.DELETE_ALARM, 0);
        send(r, reply -> { });
    }

    /** A client sends {@code r} to a random live node (any node serves any request). */
    private void send(Request r, Consumer<String> onReply) {
        List<SimNode> up = nodes.stream().filter(SimNode::up).toList();
        if (up.isEmpty()) {
            onReply.accept("no node up");
            return;
        }
        up.get(rnd.nextInt(up.size())).accept(new SimCell.Work(SimCell.Kind.REQUEST, r.scope(), r, 0, false, false, onReply));
    }

    /**
     * The store loses the newest pin of {@code scope} (deleted by hand, a broken store: nothing in
     * the protocol deletes the newest pin). What its epoch holds then has no pin: a correct restore
     * refuses the cell from here on rather than follow an older lineage without those writes.
     */
    private void losePin(String scope) {
        List<String> pins = bucket.keys(new LineageKeys(scope).root()).stream().filter(k -> k.endsWith("/base.json")).toList();
        if (!pins.isEmpty()) {
            String pin = pins.get(pins.size() - 1);
            trace("sim", "the store loses " + pin);
            pinsLost.add(scope);
            bucket.delete(pin, new SimProcess("store", "-"), "store");
        }
    }

    /** Faults stop: from here on the fleet must settle. */
    private void quiet() {
        faults.quiet = true;
        trace("sim", "quiet");
        List<SimNode> candidates = new ArrayList<>(nodes);
        if (rnd.nextInt(3) == 0) {
            candidates.get(rnd.nextInt(candidates.size())).keepDown = true; // a node that never comes back
        }
        for (SimNode n : nodes) {
            if (n.keepDown) {
                if (n.process != null) {
                    n.crash(n.process, "gone for good");
                }
            } else if (n.process == null || !n.process.alive) {
                n.boot();
            } else if (n.process.pausedUntil > loop.now()) {
                n.process.pausedUntil = loop.now();
            }
        }
    }

    /** Every live node writes to every cell, one call at a time, each retried once a second later. */
    private void finalRound() {
        FinalChecks.alarms(this);
        trace("sim", "final round");
        List<Runnable> calls = new ArrayList<>();
        for (String scope : scopes) {
            for (SimNode n : nodes) {
                if (!n.keepDown) {
                    calls.add(() -> finalWrite(n, scope, 0));
                }
            }
        }
        for (int i = 0; i < calls.size(); i++) {
            loop.after(i * 150L, null, calls.get(i));
        }
    }

    private void finalWrite(SimNode n, String scope, int attempt) {
        Request r = new Request(++requestIds, scope, Request.Op.WRITE, 0);
        Consumer<String> onReply = reply -> {
            if (reply != null) {
                if (attempt == 0) {
                    loop.after(1_000, null, () -> finalWrite(n, scope, 1));
                } else {
                    finalFailures.add(n.name + " -> " + scope + ": " + reply);
                }
            }
        };
        if (!n.up()) {
            onReply.accept("node " + n.name + " is not up");
            return;
        }
        n.accept(new SimCell.Work(SimCell.Kind.REQUEST, scope, r, 0, false, false, onReply));
    }

    // ------------------------------------------------------------------ services for nodes

    /** How the router judges a failed forward: the real rule, or the broken one that re-sends after delivery. */
    ForwardFailure.Policy forwardPolicy() {
        return variant == Variant.REROUTE_AFTER_DELIVERY ? ForwardFailure.Policy.RESEND_AFTER_DELIVERY
                : ForwardFailure.Policy.AT_MOST_ONCE;
    }

    /** The restore's rule for data without a pin: the real one, or the broken one that follows an older lineage. */
    PinRule pinRule() {
        return variant == Variant.RESTORE_ACCEPTS_MISSING_PIN ? PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA : PinRule.REFUSE;
    }

    /** How hosts and wakers judge a due wake entry: the real rule, or the one that never deletes. */
    WakeEntryVerdict wakeVerdict() {
        return variant == Variant.WAKE_ENTRY_NEVER_DELETED ? WakeEntryVerdict.NEVER_DELETES : WakeEntryVerdict.CORRECT;
    }

    SimNode node(String name) {
        for (SimNode n : nodes) {
            if (n.name.equals(name)) {
                return n;
            }
        }
        return null;
    }

    String newSession() {
        return String.format("%08x", rnd.nextInt());
    }

    long restartDelay() {
        return faults.quiet ? 200 : 300 + rnd.nextLong(3_000);
    }

    void guard(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            checker.fail("simulator error", stack(e), loop.now());
        }
    }

    void trace(String who, String what) {
        if (trace != null) {
            trace.add(String.format("%+8d %-4s %s", loop.now() - start, who, what));
            if (trace.size() > 3000) {
                trace.removeFirst();
            }
        }
    }

    private long exp(long mean) {
        return 1 + (long) (-Math.log(1 - rnd.nextDouble()) * mean);
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    static String stack(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
