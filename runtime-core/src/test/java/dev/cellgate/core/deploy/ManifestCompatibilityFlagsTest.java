package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A manifest naming a compatibility flag the runtime does not act on (pushed by a deploy-tool from
 * before the push refused it, or written by hand) is refused by the node, naming each flag: running
 * it would silently ignore what the flag asks for.
 */
class ManifestCompatibilityFlagsTest {
    private static byte[] manifest(String flags) {
        return ("{\"id\":\"d7\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3}],\"bindings\":[],\"migrations\":[],"
                + "\"compatibility_date\":\"2025-01-01\",\"compatibility_flags\":[" + flags + "],\"triggers\":{},\"plugins\":[]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aFlagOutsideTheSetRefusesTheDeploymentNamingEachFlag() {
        assertThatThrownBy(() -> Manifest.decode(manifest("\"nodejs_compat\",\"streams_enable_constructors\",\"nodejs_compatt\"")))
                .isInstanceOf(MalformedManifestException.class)
                .hasMessageStartingWith("deployment d7 is refused: ")
                .hasMessageContaining("compatibility flag \"streams_enable_constructors\" is not acted on by cellgate")
                .hasMessageContaining("compatibility flag \"nodejs_compatt\" is not acted on by cellgate")
                .hasMessageNotContaining("\"nodejs_compat\"");
    }

    @Test
    void flagsTheRuntimeActsOnDecode() {
        Manifest m = Manifest.decode(manifest("\"nodejs_compat\",\"disable_ctx_exports\",\"enable_nodejs_http_modules\""));
        assertThat(m.compatibilityFlags()).containsExactly("nodejs_compat", "disable_ctx_exports", "enable_nodejs_http_modules");
        assertThat(Manifest.decode(manifest("")).compatibilityFlags()).isEmpty();
    }
}
