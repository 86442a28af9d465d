package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deployment naming a compatibility flag the runtime does not act on (an older deploy-tool pushed
 * it, or the manifest was written by hand) is refused by the node by name, and the node keeps
 * serving the deployment it runs: running it would silently ignore what the flag asks for.
 */
class CompatibilityFlagsIT {
    static String worker(String version) {
        return "export default { fetch() { return new Response(\"" + version + "\"); } };\n";
    }

    @TempDir
    Path dir;

    @Test
    void aDeploymentWithAFlagNotActedOnIsRefusedByNameAndTheRunningOneStays() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of()); BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "app", Map.of("index.js", worker("v1")), "index.js", Map.of(), Map.of(), Map.of(),
                    List.of("nodejs_compat"));
            NodeProcess n = f.start("s1");
            SecretsIT.awaitAnswer(n, "v1");

            String bad = TestDeployments.publish(b, "app", Map.of("index.js", worker("v2")), "index.js", Map.of(), Map.of(),
                    Map.of(), List.of("nodejs_compat", "streams_enable_constructors"));
            n.awaitLine(l -> l.contains("\"event\":\"deployment.load_failed\"") || l.contains("\"event\":\"deployment.loaded\"")
                    && l.contains(bad), java.time.Duration.ofSeconds(60));
            List<JsonObject> failed = n.events("deployment.load_failed");
            assertThat(failed).as("the node's log:\n" + String.join("\n", n.lines())).hasSize(1);
            assertThat(failed.get(0).getString("deployment")).isEqualTo(bad);
            assertThat(failed.get(0).getString("error")).contains("deployment " + bad + " is refused: compatibility flag"
                    + " \"streams_enable_constructors\" is not acted on by cellgate").doesNotContain("\"nodejs_compat\"");
            assertThat(n.get(n.publicUrl("/")).body()).isEqualTo("v1");
        }
    }
}
