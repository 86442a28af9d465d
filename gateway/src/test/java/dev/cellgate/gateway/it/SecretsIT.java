package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.SecretRelease;
import dev.cellgate.core.deploy.SecretStore;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Ticker;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret change reaches a running node's Worker without a push: what {@code deploy-tool secret
 * put} and {@code secret delete} do (the same {@link SecretStore} and {@link SecretRelease} calls;
 * the CLI itself against a real node is {@code SecretsDifferentialTest} in deploy-tool, which builds
 * after this module) is picked up by the node's deployment watcher, with no restart, and the value
 * never appears in the node's log or its operator API.
 */
class SecretsIT {
    static final String WORKER = """
            export default { fetch(req, env) { return new Response(typeof env.TOKEN + ":" + env.TOKEN); } };
            """;

    @TempDir
    Path dir;

    /** Polls the node's Worker until it answers {@code want} (a switch takes one poll of current plus a compile). */
    static void awaitAnswer(NodeProcess n, String want) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        String got = null;
        while (System.nanoTime() < end) {
            got = n.get(n.publicUrl("/")).body();
            if (got.equals(want)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the Worker still answers " + got + ", not " + want + ":\n" + String.join("\n", n.lines()));
    }

    @Test
    void putAndDeleteChangeWhatTheRunningWorkerSeesWithoutAPush() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of()); BucketStore b = f.openBucket()) {
            String pushed = TestDeployments.publish(b, "app", Map.of("index.js", WORKER), "index.js", Map.of(), Map.of());
            NodeProcess n = f.start("s1");
            awaitAnswer(n, "undefined:undefined");
            SecretStore secrets = new SecretStore(b);
            SecretRelease release = new SecretRelease(b, Ticker.SYSTEM);

            secrets.put("app", "TOKEN", "first-s3cr3t", System.currentTimeMillis()).join();
            SecretRelease.Outcome put = release.publish("app", Set.of());
            assertThat(put.previous()).isEqualTo(pushed);
            awaitAnswer(n, "string:first-s3cr3t");

            secrets.put("app", "TOKEN", "second-s3cr3t", System.currentTimeMillis()).join();
            release.publish("app", Set.of());
            awaitAnswer(n, "string:second-s3cr3t");

            release.publish("app", Set.of("TOKEN"));
            assertThat(secrets.delete("app", "TOKEN").join()).isEqualTo(2);
            awaitAnswer(n, "undefined:undefined");

            assertThat(n.events("node.listening")).as("no restart").hasSize(1);
            assertThat(n.events("deployment.loaded")).as("one switch per change").hasSize(4);
            assertThat(n.events("deployment.load_failed")).isEmpty();
            assertThat(String.join("\n", n.lines())).as("the node's log").doesNotContain("s3cr3t");
            assertThat(n.state().encode()).as("the operator API's /state").doesNotContain("s3cr3t");
        }
    }
}
