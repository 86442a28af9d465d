package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Qualification (run by .ci/qualify.sh, not by CI): the owner of the writers' cells loses its
 * authority while writers keep going through its peers, either because it is frozen (SIGSTOP past
 * its lease TTL, then SIGCONT) or because its bucket is cut off (its proxy drops everything, lifted
 * once it fenced). It must fence itself ("SELF-FENCE") without serving from stale state, as the kind
 * of the fence says (issue 29): a LAPSED lease (what both disruptions normally cause: no renewal
 * landed in time) degrades it and it rejoins with a new session, no exit; a lease REPLACED meanwhile
 * (dead-node GC retired it while the node was frozen, and its renewal found that) exits 3. Peers
 * take the cells over. Zero lost acknowledged writes, zero double owners, writers progress after
 * each takeover.
 */
class FenceScenarios {
    @TempDir
    Path dir;

    @Test
    void aFrozenOwnerFencesItselfAfterItResumes() throws Exception {
        run("sigstop-owner", "SIGSTOP of the owner of the writers' cells for TTL + 5 s, then SIGCONT", (f, victim) -> {
            victim.signal("STOP");
            Thread.sleep(Matrix.TTL_MS + 5000);
            victim.signal("CONT");
        });
    }

    @Test
    void anOwnerCutOffFromTheBucketFencesItself() throws Exception {
        run("bucket-cut-off", "the owner of the writers' cells is cut off from the bucket (its proxy answers nothing) until it fenced "
                + "itself and its peers took its cells over", (f, victim) -> f.proxy(victim.name()).plan().cutOff(true));
    }

    /** Waits for the node's {@code lease.fenced} line (or its exit). */
    private static void awaitFenceLine(NodeProcess n, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end && n.alive() && n.events("lease.fenced").isEmpty()) {
            Thread.sleep(200);
        }
    }

    /** What happens to the owner; it returns once the disruption is under way (or over). */
    interface Disruption {
        void apply(ProxiedFleet f, NodeProcess victim) throws Exception;
    }

    private void run(String scenario, String disruption, Disruption disrupt) throws Exception {
        Evidence ev = Evidence.scenario(scenario, "3 nodes behind fault proxies (latency 1-10 ms, 503 2%, resets 0.5%, 1% of write "
                + "answers dropped after the write); 6 ledger writers that reach the owner only through its peers; "
                + Matrix.CYCLES + " cycles of: " + disruption + "; a fenced node that exited is started again; lease TTL "
                + Matrix.TTL_MS + " ms");
        ev.guard(() -> scenario(ev, scenario, disrupt));
    }

    private void scenario(Evidence ev, String scenario, Disruption disrupt) throws Exception {
        try (ProxiedFleet f = ProxiedFleet.create(dir, scenario, Matrix.env(), 31)) {
            f.startAll(Matrix.NODES);
            Matrix.mildEverywhere(f);
            Set<String> avoid = ConcurrentHashMap.newKeySet();
            avoid.add(Matrix.NODES.get(0));
            Matrix.ownAllThrough(f.node(Matrix.NODES.get(0)), "own");
            LedgerLoad load = new LedgerLoad("own", w -> "own" + w).start(Matrix.WRITERS, Matrix.spread(f, avoid));
            List<String> cycles = new ArrayList<>();
            boolean allFenced = true;
            boolean allProgressed = true;
            for (int c = 0; c < Matrix.CYCLES; c++) {
                Thread.sleep(Math.max(3, Matrix.SECONDS / Matrix.CYCLES) * 1000L);
                Map.Entry<NodeProcess, Integer> owner = Matrix.busiestOwner(f);
                NodeProcess victim = owner.getKey();
                avoid.clear();
                avoid.add(victim.name()); // its cells are reached through peers only
                long before = load.ackedTotal();
                long t0 = System.currentTimeMillis();
                disrupt.apply(f, victim);
                boolean progressed = Matrix.awaitProgress(load, before + Matrix.WRITERS, Duration.ofSeconds(300));
                // The fence comes within a TTL of the disruption; a cut-off is lifted once the peers took over.
                awaitFenceLine(victim, Duration.ofSeconds(Matrix.TTL_MS / 1000 * 3 + 60));
                f.proxy(victim.name()).plan().cutOff(false);
                FenceOutcome outcome = FenceOutcome.await(victim, Duration.ofSeconds(Matrix.TTL_MS / 1000 * 3 + 60));
                long settledAfter = System.currentTimeMillis() - t0;
                boolean fenced = outcome.asExpected();
                allFenced &= fenced;
                allProgressed &= progressed;
                cycles.add(victim.name() + " (owned " + owner.getValue() + " cells): " + outcome + (fenced ? "" : " (NOT as its kind says)")
                        + ", settled " + settledAfter / 1000 + " s after the disruption; writers " + (progressed ? "progressed" : "made NO progress"));
                if (victim.alive() && outcome.exit() == null && !outcome.rejoined()) {
                    victim.sigkill(); // neither exited nor rejoined: out of the fleet for the next cycle
                    victim.waitForExit(Duration.ofSeconds(30));
                }
                if (!victim.alive()) {
                    f.ended(victim);
                    Matrix.restartQuietly(f, victim.name());
                }
                avoid.clear();
            }
            ev.count("cycles", cycles)
                    .check("the disrupted owner fenced itself every time, as the fence's kind says (lapsed: degraded and rejoined "
                            + "with a new session, no exit; replaced: exit 3)", allFenced, cycles.toString())
                    .check("writers progressed after every disruption (peers took over)", allProgressed, cycles.toString());
            Matrix.finish(ev, f, load, 20);
        }
    }
}
