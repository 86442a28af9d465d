package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 10: a node must start while its bucket connection is flaky. The fault proxy in
 * front of the S3 server drops the answer of every 60th conditional write of the start-up storage
 * probe after the server applied it (several per probe, in race rounds). The probe reruns those
 * rounds and the node starts; the server is atomic, so nothing else changes.
 */
class FlakyProbeIT {
    @TempDir
    Path dir;

    @Test
    void aNodeStartsWhenSomeProbeAnswersAreLost() throws Exception {
        S3Env s3 = S3Env.require();
        AtomicInteger probeWrites = new AtomicInteger();
        AtomicInteger dropped = new AtomicInteger();
        try (FaultProxy proxy = FaultProxy.start("flaky-probe", s3.endpoint(), new FaultPlan(1), new OwnershipWitness(),
                Path.of("target", "it-logs", "faults-flaky-probe.log"));
             Fleet f = Fleet.onBucket(dir, s3.freshUrl("flaky-probe"), Map.of("S3_ENDPOINT", proxy.endpoint()))) {
            proxy.plan().add("every 60th probe write loses its answer", c -> {
                boolean hit = c.conditional() && c.under("probe/") && probeWrites.incrementAndGet() % 60 == 0;
                if (hit) {
                    dropped.incrementAndGet();
                }
                return hit;
            }, 1.0, Action.DROP_RESPONSE);
            f.deployCounter();
            NodeProcess n = f.start("n1");
            List<JsonObject> probe = n.events("storage.probe");
            assertThat(probe).singleElement().satisfies(p -> assertThat(p.getBoolean("ok")).isTrue());
            assertThat(dropped.get()).as("answers the proxy dropped").isGreaterThanOrEqualTo(2);
            assertThat(n.events("storage.probe_round_unclear")).as("rounds run again").isNotEmpty();
            assertThat(n.get(n.publicUrl("/c/flaky")).body()).isEqualTo("1");
        }
    }
}
