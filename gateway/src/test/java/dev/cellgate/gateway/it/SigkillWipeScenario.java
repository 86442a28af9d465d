package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Qualification (run by .ci/qualify.sh, not by CI): three nodes behind fault proxies with mild
 * faults, six ledger writers; each cycle SIGKILLs a node that owns cells, DELETES its local disk,
 * and starts it again. Peers take its cells over once its lease expires; the restarted node
 * restores from the bucket only. Zero lost acknowledged writes, zero double owners, and the
 * writers make progress after every kill.
 */
class SigkillWipeScenario {
    @TempDir
    Path dir;

    @Test
    void sigkillAndWipedDiskLoseNothing() throws Exception {
        Evidence ev = Evidence.scenario("sigkill-wiped-disk", "3 nodes behind fault proxies (latency 1-10 ms, 503 2%, resets 0.5%, "
                + "1% of write answers dropped after the write); 6 ledger writers; " + Matrix.CYCLES + " cycles of SIGKILL of the "
                + "owner of the writers' cells + its local disk deleted + restart; lease TTL " + Matrix.TTL_MS + " ms");
        ev.guard(() -> scenario(ev));
    }

    private void scenario(Evidence ev) throws Exception {
        try (ProxiedFleet f = ProxiedFleet.create(dir, "sigkill", Matrix.env(), 21)) {
            f.startAll(Matrix.NODES);
            Matrix.mildEverywhere(f);
            List<String> progress = new ArrayList<>();
            int kills = 0;
            Matrix.ownAllThrough(f.node(Matrix.NODES.get(0)), "kill"); // the first victim owns every cell
            LedgerLoad load = new LedgerLoad("kill", w -> "kill" + w).start(Matrix.WRITERS, Matrix.spread(f, List.of()));
            List<String> victims = new ArrayList<>();
            for (int cycle = 0; cycle < Matrix.CYCLES; cycle++) {
                Thread.sleep(Math.max(3, Matrix.SECONDS / Matrix.CYCLES) * 1000L);
                Map.Entry<NodeProcess, Integer> owner = Matrix.busiestOwner(f);
                NodeProcess v = owner.getKey();
                String victim = v.name();
                victims.add(victim + " (owned " + owner.getValue() + " cells)");
                long before = load.ackedTotal();
                v.sigkill();
                v.waitForExit(Duration.ofSeconds(30));
                f.ended(v);
                kills++;
                CrashLedger.deleteRecursively(f.fleet.root.resolve(victim).resolve("watch"));
                boolean moved = Matrix.awaitProgress(load, before + Matrix.WRITERS, Duration.ofSeconds(300));
                progress.add(victim + ": " + (moved ? "writers progressed after the kill" : "NO progress within 300 s"));
                Matrix.restartQuietly(f, victim);
            }
            ev.count("kills", kills).count("victims", victims).count("progress_after_each_kill", progress)
                    .check("writers progressed after every kill", progress.stream().noneMatch(p -> p.contains("NO progress")),
                            progress.toString());
            Matrix.finish(ev, f, load, 20);
        }
    }
}
