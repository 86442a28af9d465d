package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Qualification (run by .ci/qualify.sh, not by CI): a rolling restart on S3 through fault proxies.
 * Six writers keep sending through every running node while each node in turn gets SIGTERM (drain,
 * hand its cells off), exits 0, and is started again. Zero lost acknowledged writes, zero double
 * owners, every exit clean, no self-fence.
 */
class RollingRestartScenario {
    @TempDir
    Path dir;

    @Test
    void rollingRestartThroughFaultsLosesNothing() throws Exception {
        Evidence ev = Evidence.scenario("rolling-restart", "3 nodes behind fault proxies (latency 1-10 ms, 503 2%, resets 0.5%, 1% of "
                + "write answers dropped after the write); 6 ledger writers through every running node; " + Matrix.ROUNDS
                + " rounds of SIGTERM + restart of each node in turn; lease TTL " + Matrix.TTL_MS + " ms");
        ev.guard(() -> scenario(ev));
    }

    private void scenario(Evidence ev) throws Exception {
        try (ProxiedFleet f = ProxiedFleet.create(dir, "rolling", Matrix.env(), 51)) {
            f.startAll(Matrix.NODES);
            Matrix.mildEverywhere(f);
            LedgerLoad load = new LedgerLoad("roll", w -> "roll" + w).start(Matrix.WRITERS, Matrix.spread(f, List.of()));
            Matrix.awaitProgress(load, Matrix.WRITERS, Duration.ofSeconds(120));
            List<String> restarts = new ArrayList<>();
            boolean clean = true;
            boolean progressed = true;
            for (int round = 0; round < Matrix.ROUNDS; round++) {
                for (String name : Matrix.NODES) {
                    NodeProcess old = f.node(name);
                    if (old == null) {
                        // Not running when its turn came (it exited on its own meanwhile): say so, and
                        // start it again so the round goes on. Before, this was a NullPointerException.
                        NodeProcess last = f.latest(name);
                        String how = last == null ? "never started" : "exited " + last.waitForExit(Duration.ofSeconds(5));
                        clean = false;
                        restarts.add(name + ": NOT running when its turn came (" + how + ")");
                        if (last != null) {
                            f.ended(last);
                        }
                        Matrix.restartQuietly(f, name);
                        continue;
                    }
                    long before = load.ackedTotal();
                    old.sigterm();
                    int code = old.waitForExit(Duration.ofSeconds(120));
                    f.ended(old);
                    Matrix.restartQuietly(f, name);
                    boolean moved = Matrix.awaitProgress(load, before + Matrix.WRITERS, Duration.ofSeconds(300));
                    clean &= code == 0;
                    progressed &= moved;
                    restarts.add(name + ": exit " + code + (moved ? "" : ", writers made NO progress"));
                }
            }
            List<String> fences = f.fences();
            ev.count("restarts", restarts)
                    .check("every node exited 0 on SIGTERM", clean, restarts.toString())
                    .check("writers progressed after every restart", progressed, restarts.toString())
                    .check("no node fenced itself", fences.isEmpty(), fences.toString());
            Matrix.finish(ev, f, load, 20);
        }
    }
}
