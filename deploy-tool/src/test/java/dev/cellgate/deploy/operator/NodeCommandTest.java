package dev.cellgate.deploy.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool node} against a real node on a file bucket: its calls are signed exactly as
 * the node checks them (SPEC §19). An eviction of a cell the node does not hold reaches the route
 * (404, not 401); with another fleet's key in the bucket a shutdown is refused (401) and the node
 * keeps running; with the right key the shutdown stops it.
 */
class NodeCommandTest {
    static final String T = RealNode.TIMEOUT_MS;

    @TempDir
    Path tmp;

    @Test
    void signedCallsReachTheRoutesAndAnotherFleetsKeyIsRefused() throws Exception {
        String bucket = RealNode.helloBucket(tmp);
        try (RealNode n = RealNode.start(tmp, bucket, "op-n1")) {
            String scope = "Counter:" + "ab".repeat(32);
            ToolRun evict = ToolRun.run("node", "op-n1", "evict", scope, "--bucket", bucket, "--timeout-ms", T);
            assertThat(evict.code()).as(evict + "\n" + n.log()).isEqualTo(ExitCodes.FAILED);
            assertThat(evict.err()).contains("answered POST /evict/" + scope + " with 404").contains("not resident");
            assertThat(n.lines).anySatisfy(l -> assertThat(l).contains("\"event\":\"operator.call\"").contains("\"by\":\"signature\""));

            byte[] key;
            try (BucketStore s = new BucketStores(null).open(bucket, StoreOptions.none())) {
                key = s.get(Keys.PEER_AUTH).join().orElseThrow().bytes();
                s.put(Keys.PEER_AUTH, new PeerAuthRecord(1, "cd".repeat(32), System.currentTimeMillis()).encode()).join();
            }
            ToolRun wrong = ToolRun.run("node", "op-n1", "shutdown", "--bucket", bucket, "--timeout-ms", T);
            assertThat(wrong.code()).isEqualTo(ExitCodes.FAILED);
            assertThat(wrong.err()).contains("with 401").contains("bad operator signature");
            Thread.sleep(500);
            assertThat(n.process.isAlive()).as("a refused shutdown does nothing").isTrue();

            try (BucketStore s = new BucketStores(null).open(bucket, StoreOptions.none())) {
                s.put(Keys.PEER_AUTH, key).join();
            }
            ToolRun stop = ToolRun.run("node", "op-n1", "shutdown", "--json", "--bucket", bucket, "--timeout-ms", T);
            assertThat(stop.code()).as(stop.toString()).isZero();
            assertThat(stop.json().getInteger("status")).isEqualTo(202);
            assertThat(n.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(n.process.exitValue()).isZero();
        }
    }

    @Test
    void badCommandLinesAreRefusedBeforeAnyCall() {
        String bucket = "file://" + tmp.resolve("empty");
        assertThat(ToolRun.run("node", "n1", "--bucket", bucket).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("node", "n1", "reboot", "--bucket", bucket).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("node", "n1", "evict", "not-a-scope", "--bucket", bucket).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run("node", "n1", "probe", "s3://b", "--preserve", "--bucket", bucket).code()).isEqualTo(ExitCodes.USAGE);
        ToolRun noLease = ToolRun.run("node", "n1", "shutdown", "--bucket", bucket);
        assertThat(noLease.code()).isEqualTo(ExitCodes.FAILED);
        assertThat(noLease.err()).contains("no fleet key");
    }

    @Test
    void theActionsMapToTheOperatorRoutes() {
        assertThat(NodeCommand.path(java.util.List.of("shutdown"), false)).isEqualTo("/shutdown");
        assertThat(NodeCommand.path(java.util.List.of("shutdown"), true)).isEqualTo("/shutdown?handoff=preserve");
        assertThat(NodeCommand.path(java.util.List.of("evict", "A:" + "0".repeat(64)), false)).isEqualTo("/evict/A:" + "0".repeat(64));
        assertThat(NodeCommand.path(java.util.List.of("probe", "s3://b/p"), false)).isEqualTo("/probe?bucket=s3%3A%2F%2Fb%2Fp");
    }
}
