package dev.cellgate.deploy.diagnose;

import static dev.cellgate.deploy.diagnose.Leases.lease;
import static dev.cellgate.deploy.diagnose.Leases.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diagnose} through the CLI against buckets whose records the test writes: every kind of
 * bad lease is reported, the run keeps going after each, the exit code says whether anything is
 * wrong, and {@code --read-only} leaves the bucket byte-for-byte as it was.
 */
class DiagnoseTest {
    @TempDir
    Path tmp;

    String url() {
        return "file://" + tmp.resolve("bucket");
    }

    BucketStore store() {
        return new BucketStores(null).open(url(), StoreOptions.none());
    }

    void put(String key, byte[] bytes) {
        try (BucketStore s = store()) {
            s.put(key, bytes).join();
        }
    }

    static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    ToolRun diagnose(String... extra) {
        String[] argv = new String[extra.length + 4];
        argv[0] = "diagnose";
        argv[1] = "--bucket";
        argv[2] = url();
        argv[3] = "--json";
        System.arraycopy(extra, 0, argv, 4, extra.length);
        return ToolRun.run(argv);
    }

    @Test
    void anEmptyBucketIsHealthyAndTheStorageProbeCleansUp() throws Exception {
        ToolRun r = diagnose();
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OK);
        JsonObject j = r.json();
        assertThat(j.getBoolean("ok")).isTrue();
        assertThat(j.getJsonArray("leases")).isEmpty();
        JsonObject storage = j.getJsonObject("storage");
        assertThat(storage.getBoolean("ok")).isTrue();
        assertThat(storage.getJsonArray("steps").stream().map(s -> ((JsonObject) s).getString("step")).toList())
                .containsExactly("create", "reject-create", "cas-update", "reject-stale-cas", "race", "cleanup");
        try (BucketStore s = store()) {
            assertThat(s.list(Keys.PROBE, null, 10).join().keys()).as("no scratch object left").isEmpty();
        }
        ToolRun text = ToolRun.run("diagnose", "--bucket", url());
        assertThat(text.code()).isZero();
        assertThat(text.out()).contains("no problems found").contains("OK      storage probe passed: conditional writes are atomic on");
    }

    @Test
    void everyBadLeaseIsReportedAndTheRunKeepsGoing() throws Exception {
        long now = System.currentTimeMillis();
        put(Keys.PEER_AUTH, new PeerAuthRecord(1, "ab".repeat(32), now).encode());
        put(Keys.lease("junk"), text("{\"node\":"));
        put(Keys.lease("old"), lease("old", "127.0.0.1:7001", now - 60_000).encode());
        put(Keys.lease("wild"), lease("wild", "0.0.0.0:7002", now + 60_000).encode());
        put(Keys.lease("gone"), lease("gone", "127.0.0.1:" + closedPort(), now + 60_000).encode());
        ToolRun r = diagnose();
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.UNHEALTHY);
        JsonObject j = r.json();
        assertThat(j.getBoolean("ok")).isFalse();
        List<String> problems = j.getJsonArray("problems").stream().map(String::valueOf).toList();
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("lease junk: malformed"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("lease old: expired"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("lease wild: advertises 0.0.0.0:7002, a bind-all address"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("peer wild: not probed: wildcard"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("peer gone: unreachable at 127.0.0.1:"));
        assertThat(problems).hasSize(5);
        // kept going: the later steps ran
        assertThat(j.getJsonObject("storage").getBoolean("ok")).isTrue();
        assertThat(j.getJsonObject("deployment").getString("note")).isEqualTo("nothing deployed yet");
        ToolRun text = ToolRun.run("diagnose", "--bucket", url(), "--read-only");
        assertThat(text.code()).isEqualTo(ExitCodes.UNHEALTHY);
        assertThat(text.out()).contains("PROBLEM junk").contains("PROBLEM old  expired").contains("5 problem(s) found");
    }

    @Test
    void loopbackBesideARemoteNodeIsUnsafe() throws Exception {
        long now = System.currentTimeMillis();
        put(Keys.PEER_AUTH, new PeerAuthRecord(1, "ab".repeat(32), now).encode());
        put(Keys.lease("here"), lease("here", "127.0.0.1:" + closedPort(), now + 60_000).encode());
        put(Keys.lease("there"), lease("there", "192.0.2.10:7000", now + 60_000).encode()); // TEST-NET-1: never routable
        ToolRun r = diagnose("--timeout-ms", "1500", "--read-only");
        assertThat(r.code()).isEqualTo(ExitCodes.UNHEALTHY);
        assertThat(r.json().getJsonArray("problems").stream().map(String::valueOf).toList())
                .anySatisfy(p -> assertThat(p).startsWith("lease here: advertises loopback"))
                .anySatisfy(p -> assertThat(p).startsWith("peer there: unreachable at 192.0.2.10:7000"));
    }

    @Test
    void namedPeersAreTheOnlyOnesProbedAndUnknownOnesAreProblems() throws Exception {
        long now = System.currentTimeMillis();
        put(Keys.PEER_AUTH, new PeerAuthRecord(1, "ab".repeat(32), now).encode());
        put(Keys.lease("a"), lease("a", "127.0.0.1:" + closedPort(), now + 60_000).encode());
        put(Keys.lease("b"), lease("b", "127.0.0.1:" + closedPort(), now - 1000).encode());
        ToolRun r = diagnose("--peer", "b", "--peer", "zed", "--read-only");
        List<String> problems = r.json().getJsonArray("problems").stream().map(String::valueOf).toList();
        assertThat(problems).contains("peer b: has no live lease (expired)", "peer zed: has no lease under nodes/");
        assertThat(problems).noneMatch(p -> p.startsWith("peer a:"));
    }

    @Test
    void liveNodesWithoutAFleetKeyIsAProblem() throws Exception {
        put(Keys.lease("a"), lease("a", "127.0.0.1:" + closedPort(), System.currentTimeMillis() + 60_000).encode());
        ToolRun r = diagnose("--read-only");
        assertThat(r.json().getJsonArray("problems").stream().map(String::valueOf).toList())
                .anySatisfy(p -> assertThat(p).contains("fleet key fleet/peer-auth.json is missing"))
                .anySatisfy(p -> assertThat(p).isEqualTo("peer a: not probed: no usable fleet key"));
    }

    @Test
    void readOnlyWritesNothingAtAll() throws Exception {
        long now = System.currentTimeMillis();
        put(Keys.PEER_AUTH, new PeerAuthRecord(1, "ab".repeat(32), now).encode());
        put(Keys.lease("old"), lease("old", "127.0.0.1:7001", now - 60_000).encode());
        Map<String, String> before = ToolRun.snapshot(tmp.resolve("bucket"));
        ToolRun r = diagnose("--read-only");
        assertThat(r.json().getJsonObject("storage").getBoolean("skipped")).isTrue();
        assertThat(ToolRun.snapshot(tmp.resolve("bucket"))).isEqualTo(before);
    }

    @Test
    void aMalformedCurrentDeploymentIsAProblem() {
        put(Keys.CURRENT_DEPLOYMENT, text("{\"deployment\":42}"));
        ToolRun r = diagnose("--read-only");
        assertThat(r.code()).isEqualTo(ExitCodes.UNHEALTHY);
        assertThat(r.json().getJsonArray("problems").getString(0)).startsWith("deployment: deploy/current.json:");
    }

    @Test
    void aBucketThatCannotBeOpenedIsAFailure() throws Exception {
        // a file bucket whose directory cannot be listed: its path is a regular file
        java.nio.file.Files.writeString(tmp.resolve("bucket-file"), "x");
        ToolRun r = ToolRun.run("diagnose", "--bucket", "file://" + tmp.resolve("bucket-file"), "--json");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.json().getString("error")).contains("cannot open bucket");
    }
}
