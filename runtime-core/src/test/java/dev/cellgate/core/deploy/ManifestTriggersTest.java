package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A manifest whose cron trigger does not parse (written by hand, or by a deploy-tool from before
 * the push checked them) is refused by the node, naming the expression: running the deployment
 * would leave that trigger accepted and never run.
 */
class ManifestTriggersTest {
    private static byte[] manifest(String crons) {
        return ("{\"id\":\"d9\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3}],\"bindings\":[],\"migrations\":[],"
                + "\"compatibility_date\":\"2025-01-01\",\"compatibility_flags\":[],\"triggers\":{\"crons\":[" + crons + "]},"
                + "\"plugins\":[]}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCronThatDoesNotParseRefusesTheDeploymentNamingIt() {
        assertThatThrownBy(() -> Manifest.decode(manifest("\"*/5 * * * *\",\"61 * * * *\"")))
                .isInstanceOf(MalformedManifestException.class)
                .hasMessageContaining("invalid cron expression \"61 * * * *\"");
    }

    @Test
    void cronsThatParseDecodeAsWritten() {
        assertThat(Manifest.decode(manifest("\"*/5 * * * *\",\"0 12 * * MON\"")).triggers().crons())
                .containsExactly("*/5 * * * *", "0 12 * * MON");
    }
}
