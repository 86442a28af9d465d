package dev.cellgate.deploy.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diagnose} against a real node ({@code java -jar gateway/target/gateway.jar}) on a file
 * bucket: its lease is live, the signed probe is accepted (so deploy-tool signs exactly as the
 * node verifies), the node reports its protocol and load. With another fleet key in the bucket
 * the same probe is refused with 401, and diagnose says so and exits 5. After SIGTERM the node
 * retires its lease and the fleet is clean again.
 */
class DiagnoseRealNodeTest {
    static final String T = RealNode.TIMEOUT_MS;

    @TempDir
    Path tmp;

    @Test
    void aRealNodeIsProbedWithAValidSignature() throws Exception {
        String bucket = RealNode.helloBucket(tmp);

        try (RealNode n = RealNode.start(tmp, bucket, "diag-n1")) {
            Process node = n.process;
            List<String> lines = n.lines;
            JsonObject listening = n.listening;
            String advertise = listening.getString("advertise");

            ToolRun r = ToolRun.run("diagnose", "--bucket", bucket, "--json", "--timeout-ms", T);
            assertThat(r.code()).as(r + "\nnode log:\n" + String.join("\n", lines)).isEqualTo(ExitCodes.OK);
            JsonObject lease = r.json().getJsonArray("leases").getJsonObject(0);
            assertThat(lease.getString("node")).isEqualTo("diag-n1");
            assertThat(lease.getString("status")).isEqualTo("live");
            assertThat(lease.getString("advertise")).isEqualTo(advertise);
            JsonObject peer = r.json().getJsonArray("peers").getJsonObject(0);
            assertThat(peer.getMap()).containsEntry("node", "diag-n1").containsEntry("reachable", true).containsEntry("status", 200)
                    .containsEntry("protocol", PeerSignature.VERSION).containsEntry("auth_ok", true).containsEntry("draining", false);
            assertThat(peer.getJsonObject("load").containsKey("resident")).isTrue();
            assertThat(r.json().getJsonObject("storage").getBoolean("ok")).isTrue();

            ToolRun named = ToolRun.run("diagnose", "--bucket", bucket, "--peer", "diag-n1", "--read-only", "--timeout-ms", T);
            assertThat(named.code()).isZero();
            assertThat(named.out()).contains("OK      diag-n1  reachable at " + advertise + ", protocol " + PeerSignature.VERSION + ", auth ok");

            // Another fleet's key: the node (which keeps the key it started with) refuses our signature.
            try (BucketStore s = new BucketStores(null).open(bucket, StoreOptions.none())) {
                s.put(Keys.PEER_AUTH, new PeerAuthRecord(1, "cd".repeat(32), System.currentTimeMillis()).encode()).join();
            }
            ToolRun wrongKey = ToolRun.run("diagnose", "--bucket", bucket, "--json", "--read-only", "--timeout-ms", T);
            assertThat(wrongKey.code()).isEqualTo(ExitCodes.UNHEALTHY);
            assertThat(wrongKey.json().getJsonArray("problems").getString(0))
                    .startsWith("peer diag-n1: refused our signature (401: bad peer signature)");
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"event\":\"peer.refused\"").contains("deploy-tool"));

            node.toHandle().destroy(); // SIGTERM: a clean stop retires the lease
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            ToolRun after = ToolRun.run("diagnose", "--bucket", bucket, "--json", "--read-only", "--timeout-ms", T);
            assertThat(after.code()).as(after.toString()).isZero();
            assertThat(after.json().getJsonArray("leases")).isEmpty();
        }
    }
}
