package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
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
class AmbiguousOutcomesIT {

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
        List<String> names = List.of("a1", "a2", "a3");
        try (ProxiedFleet f = ProxiedFleet.create(dir, "ambiguous", Matrix.env(), 11)) {
            List<NodeProcess> nodes = f.startAll(names);
            for (String n : names) {
                chaos(f.proxy(n).plan());
            }
            LedgerLoad load = new LedgerLoad("amb", w -> "amb" + w).start(6, (w, attempt) -> {
                NodeProcess n = f.node(names.get((int) ((w + attempt) % names.size())));
                return n != null ? n : f.node(names.get(0));
            });
            Evictor evictor = Evictor.start(f, 4000);
            Thread.sleep(Matrix.SECONDS * 1000L);
            evictor.stop();
            for (FaultProxy p : f.proxies.values()) {
                p.plan().clear();
            }
            Thread.sleep(2000);
            load.stop();
            NodeProcess via = f.node(names.get(0)) != null ? f.node(names.get(0)) : nodes.get(1);
            CrashLedger.Result r = load.verify(via);
            List<String> doubleLogs = f.doubleActivations();
            List<String> doubleBucket = f.witness.doubleOwners();
            long applied = f.sum("ambiguous_writes_applied");
            ev.count("acknowledged_writes", r.acked())
                    .count("lost_acknowledged_writes", r.lost())
                    .count("writer_outcomes", load.outcomes())
                    .count("ambiguous_writes_applied_answer_dropped", applied)
                    .count("ambiguous_writes_not_applied_reset", f.sum("ambiguous_writes_not_applied"))
                    .count("ownership_writes_applied_unanswered", f.witness.appliedUnanswered())
                    .count("ownership_acquisitions_applied", f.witness.acquisitions())
                    .count("evictions_requested", evictor.released())
                    .count("activations_logged", f.activations())
                    .count("self_fences", f.fences().size())
                    .count("proxies", f.proxyCounts())
                    .check("writers were acknowledged", r.acked() >= 20, r.acked() + " acknowledged (need 20)")
                    .check("zero lost acknowledged writes", r.lost() == 0, r.lost() + " lost " + r.details())
                    .check("zero double owners (cell.activated logs)", doubleLogs.isEmpty(), doubleLogs.toString())
                    .check("zero double owners (applied own.json writes)", doubleBucket.isEmpty(), doubleBucket.toString())
                    .check("ambiguous outcomes were injected", applied > 0 && f.witness.appliedUnanswered() > 0,
                            applied + " applied writes unanswered, " + f.witness.appliedUnanswered() + " of them ownership records")
                    .check("no node fenced itself", f.fences().isEmpty(), f.fences().toString())
                    .writeAndAssert();
        }
    }
}
