package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the live fault scenarios share: their settings (short by default for CI, longer under
 * .ci/qualify.sh through system properties), a background of mild bucket faults, routing of the
 * ledger writers, and the closing checks every scenario must pass (zero lost acknowledged writes,
 * zero double owners seen in the logs and in the bucket).
 */
final class Matrix {
    static final List<String> NODES = List.of("n1", "n2", "n3");
    /** Lease TTL of the scenarios: generous, because a loaded 2-core box can stall a renewal for seconds. */
    static final long TTL_MS = Long.getLong("qualify.ttl.ms", 20_000);
    /** How long a scenario keeps its fault or load phase going. */
    static final int SECONDS = Integer.getInteger("qualify.seconds", 30);
    /** How many times a repeating scenario (kill, stop) repeats. */
    static final int CYCLES = Integer.getInteger("qualify.cycles", 2);
    /** Rounds of a rolling restart (each restarts every node once). */
    static final int ROUNDS = Integer.getInteger("qualify.rounds", 1);
    static final int WRITERS = 6;

    private Matrix() {
    }

    /**
     * Starts node {@code name} again with its proxy's faults lifted while it starts, then puts the
     * mild background back. A starting node runs a storage probe that refuses the bucket on any
     * ambiguous answer ("atomicity cannot be shown", exit 1): by design, and not what these
     * scenarios are about.
     */
    static NodeProcess restartQuietly(ProxiedFleet f, String name) throws Exception {
        FaultPlan plan = f.proxy(name).plan();
        plan.clear();
        try {
            return f.start(name);
        } finally {
            mild(plan);
        }
    }

    /** Puts the mild background on every node's proxy. */
    static void mildEverywhere(ProxiedFleet f) throws Exception {
        for (String n : NODES) {
            mild(f.proxy(n).plan());
        }
    }

    static Map<String, String> env() {
        return Map.of("CELLD_TTL_MS", Long.toString(TTL_MS));
    }

    /** A background every scenario runs on: latency, a little throttling, resets, answers lost after the write. */
    static void mild(FaultPlan plan) {
        plan.latency(1, 10)
                .add("drop write answer", c -> c.isWrite(), 0.01, Action.DROP_RESPONSE)
                .add("reset", c -> true, 0.005, Action.RESET)
                .add("slow down", c -> true, 0.02, Action.THROTTLE_503);
    }

    /** Writer w sends to NODES[(w + attempt) % 3], skipping nodes that are down and those in {@code avoid}. */
    static LedgerLoad.Route spread(ProxiedFleet f, java.util.Collection<String> avoid) {
        return (w, attempt) -> {
            for (int i = 0; i < NODES.size(); i++) {
                String name = NODES.get((int) ((w + attempt + i) % NODES.size()));
                NodeProcess n = avoid.contains(name) ? null : f.node(name);
                if (n != null) {
                    return n;
                }
            }
            return null;
        };
    }

    /** Sends one write for every writer's cell through {@code via}, so that node owns them all (the first request acquires). */
    static void ownAllThrough(NodeProcess via, String tag) throws Exception {
        for (int w = 0; w < WRITERS; w++) {
            long end = System.nanoTime() + Duration.ofSeconds(300).toNanos();
            int status = 0;
            while (System.nanoTime() < end && status != 200) {
                if (!via.alive()) {
                    throw new AssertionError("warm-up: " + via.name() + " exited while taking the writers' cells: "
                            + via.lines().stream().filter(l -> l.startsWith("SELF-FENCE:")).findFirst().orElse("no SELF-FENCE line"));
                }
                try {
                    status = via.post(via.publicUrl("/" + tag + w + "?v=warm-" + w), "").statusCode();
                } catch (java.io.IOException e) {
                    status = -1;
                }
            }
            if (status != 200) {
                throw new AssertionError("warm-up write to " + tag + w + " through " + via.name() + " never succeeded (" + status + ")");
            }
        }
    }

    /** Waits until the writers have more than {@code before} acknowledged writes in total (liveness, not speed). */
    static boolean awaitProgress(LedgerLoad load, long before, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            if (load.ackedTotal() > before) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    /**
     * The running node that most recently activated the most cells (the highest epoch of each
     * scope in the logs), and how many: the owner a disruption should hit. Logs, not the bucket:
     * good enough to aim, and reported in the evidence.
     */
    static Map.Entry<NodeProcess, Integer> busiestOwner(ProxiedFleet f) {
        Map<String, Map.Entry<Long, NodeProcess>> latest = new java.util.HashMap<>();
        for (Map.Entry<String, NodeProcess> e : f.processes) {
            for (io.vertx.core.json.JsonObject j : e.getValue().events("cell.activated")) {
                long epoch = j.getLong("epoch", 0L);
                latest.merge(j.getString("scope"), Map.entry(epoch, e.getValue()), (a, b) -> a.getKey() >= b.getKey() ? a : b);
            }
        }
        Map<NodeProcess, Integer> owned = new java.util.HashMap<>();
        latest.values().forEach(v -> {
            if (v.getValue().alive()) {
                owned.merge(v.getValue(), 1, Integer::sum);
            }
        });
        return owned.entrySet().stream().max(Map.Entry.comparingByValue())
                .orElseGet(() -> Map.entry(anyLive(f), 0));
    }

    /** Any running node to read through. */
    static NodeProcess anyLive(ProxiedFleet f) {
        return f.live.stream().filter(NodeProcess::alive).findFirst()
                .orElseThrow(() -> new AssertionError("no node left running to verify through"));
    }

    /**
     * Ends a scenario: lifts every fault, stops the writers, reads every cell back, and adds the
     * checks every scenario must pass to {@code ev}; then writes the evidence (and fails on a failed check).
     */
    static void finish(Evidence ev, ProxiedFleet f, LedgerLoad load, long minAcked) throws Exception {
        for (FaultProxy p : f.proxies.values()) {
            p.plan().clear();
            p.plan().cutOff(false);
        }
        Thread.sleep(2000);
        load.stop();
        CrashLedger.Result r = load.verify(anyLive(f));
        List<String> doubleLogs = f.doubleActivations();
        List<String> doubleBucket = f.witness.doubleOwners();
        ev.count("acknowledged_writes", r.acked())
                .count("lost_acknowledged_writes", r.lost())
                .count("acknowledged_per_cell", load.ackedPerCell())
                .count("writer_outcomes", load.outcomes())
                .count("ownership_acquisitions_applied", f.witness.acquisitions())
                .count("ownership_writes_applied_unanswered", f.witness.appliedUnanswered())
                .count("activations_logged", f.activations())
                .count("processes_started", f.processes.size())
                .count("self_fences", f.fences().size())
                .count("proxies", f.proxyCounts())
                .check("writers were acknowledged", r.acked() >= minAcked, r.acked() + " acknowledged (need " + minAcked + ")")
                .check("zero lost acknowledged writes", r.lost() == 0, r.lost() + " lost " + r.details())
                .check("zero double owners (cell.activated logs)", doubleLogs.isEmpty(), doubleLogs.toString())
                .check("zero double owners (applied own.json writes)", doubleBucket.isEmpty(), doubleBucket.toString())
                .writeAndAssert();
    }
}
