package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue K.3: three nodes, each reaching the bucket through a fault proxy that adds latency,
 * answers 503 SlowDown, resets connections, and drops answers AFTER the bucket applied the write
 * (leases, ownership records, replication segments alike), while writers append to ledger cells
 * through any node and an operator evicts the cells again and again (so ownership is released and
 * re-acquired under the same faults). Zero acknowledged writes lost, zero double owners (from the
 * nodes' logs and from the ownership writes the bucket applied), and no node fenced (no fault here
 * lasts a lease TTL).
 */
class AmbiguousOutcomesScenario {

    @TempDir
    Path dir;

    static void chaos(FaultPlan plan) {
        plan.latency(2, 30)
                .add("drop own.json answer", c -> c.method().equals("PUT") && c.isCellRecord("/own.json"), 0.2, Action.DROP_RESPONSE)
                .add("drop lease answer", c -> c.method().equals("PUT") && c.under("nodes/"), 0.05, Action.DROP_RESPONSE)
                .add("drop write answer", c -> c.isWrite(), 0.04, Action.DROP_RESPONSE)
                .add("time out write", c -> c.isWrite() && c.under("cells/"), 0.003, Action.DROP_RESPONSE_SILENT)
                .add("reset", c -> true, 0.02, Action.RESET)
                .add("slow down", c -> true, 0.05, Action.THROTTLE_503);
    }

    @Test
    void ambiguousBucketOutcomesLoseNoAcknowledgedWriteAndMakeNoDoubleOwner() throws Exception {
        Evidence ev = Evidence.scenario("ambiguous-outcomes", "3 nodes behind fault proxies: latency 2-30 ms, 503 SlowDown 5%, "
                + "resets 2%, answers dropped after the write was applied (own.json 20%, leases 5%, other writes 4%), "
                + "0.3% of cell writes never answered (30 s timeout); 6 ledger writers through any node; every cell "
                + "evicted every 4 s; " + Matrix.SECONDS + " s; lease TTL " + Matrix.TTL_MS + " ms");
        ev.guard(() -> scenario(ev));
    }

    private void scenario(Evidence ev) throws Exception {
        try (ProxiedFleet f = ProxiedFleet.create(dir, "ambiguous", Matrix.env(), 11)) {
            f.startAll(Matrix.NODES);
            for (String n : Matrix.NODES) {
                chaos(f.proxy(n).plan());
            }
            LedgerLoad load = new LedgerLoad("amb", w -> "amb" + w).start(Matrix.WRITERS, Matrix.spread(f, List.of()));
            Evictor evictor = Evictor.start(f, 4000);
            Thread.sleep(Matrix.SECONDS * 1000L);
            evictor.stop();
            long applied = f.sum("ambiguous_writes_applied");
            ev.count("ambiguous_writes_applied_answer_dropped", applied)
                    .count("ambiguous_writes_not_applied_reset", f.sum("ambiguous_writes_not_applied"))
                    .count("evictions_requested", evictor.released())
                    .check("ambiguous outcomes were injected", applied > 0 && f.witness.appliedUnanswered() > 0,
                            applied + " applied writes unanswered, " + f.witness.appliedUnanswered() + " of them ownership records")
                    .check("no node fenced itself", f.fences().isEmpty(), f.fences().toString());
            Matrix.finish(ev, f, load, 20);
        }
    }
}
