package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code limits} in a manifest: {@code cpu_ms} reaches the engine with the bundle; a value outside
 * 1..300000, or a sub-key the node does not act on (a hand-written manifest, say), refuses the
 * deployment by name instead of running it with the limit ignored.
 */
class ManifestLimitsTest {
    private static byte[] manifest(String limits) {
        return ("{\"id\":\"d9\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3}],\"bindings\":[],\"migrations\":[],"
                + "\"compatibility_date\":\"2025-01-01\",\"compatibility_flags\":[],\"triggers\":{\"crons\":[]},"
                + "\"plugins\":[]" + (limits == null ? "" : ",\"limits\":" + limits) + "}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void cpuMsRoundTripsAndReachesTheBundle() throws Exception {
        Manifest m = Manifest.decode(manifest("{\"cpu_ms\":50}"));
        assertThat(m.settings().cpuMs()).isEqualTo(50L);
        assertThat(Manifest.decode(m.encode()).settings().cpuMs()).isEqualTo(50L);
        Deployment d = new Deployment(m, Map.of("index.js", "x=1".getBytes(StandardCharsets.UTF_8)));
        assertThat(d.toBundle(Map.of()).cpuLimitMs()).isEqualTo(50L);
    }

    @Test
    void withoutLimitsTheBundleHasNoneAndTheNodeDefaultApplies() throws Exception {
        Manifest m = Manifest.decode(manifest(null));
        assertThat(m.settings().cpuMs()).isNull();
        assertThat(new Deployment(m, Map.of("index.js", "x=1".getBytes(StandardCharsets.UTF_8))).toBundle(Map.of()).cpuLimitMs())
                .isNull();
    }

    @Test
    void aCpuMsOutsideTheRangeOrNotAWholeNumberIsRefused() {
        for (String bad : new String[] {"0", "300001", "2.5", "\"50\""}) {
            assertThatThrownBy(() -> Manifest.decode(manifest("{\"cpu_ms\":" + bad + "}"))).as(bad)
                    .isInstanceOf(MalformedManifestException.class)
                    .hasMessageContaining("limits.cpu_ms must be a whole number of milliseconds from 1 to 300000");
        }
    }

    @Test
    void aLimitTheNodeDoesNotActOnIsRefusedByName() {
        assertThatThrownBy(() -> Manifest.decode(manifest("{\"cpu_ms\":50,\"subrequests\":10}")))
                .isInstanceOf(MalformedManifestException.class)
                .hasMessageContaining("limits.subrequests is not acted on by this node");
        assertThatThrownBy(() -> Manifest.decode(manifest("7"))).isInstanceOf(MalformedManifestException.class)
                .hasMessageContaining("limits must be an object");
    }
}
