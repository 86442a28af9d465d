package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * {@code limits}: {@code cpu_ms} is the CPU time each event of the Worker may use (1 to 300000 ms,
 * Cloudflare's range); {@code subrequests}, Wrangler's other sub-key, is refused by name; the key is
 * inherited by environments, as in Wrangler.
 */
class WranglerLimitsTest {
    static WranglerConfig parse(String json) {
        return WranglerConfig.parse(new JsonObject(json), "wrangler.json");
    }

    @Test
    void cpuMsIsReadAndAbsentMeansTheNodeDefault() {
        assertThat(parse("{\"limits\":{\"cpu_ms\":50}}").cpuMs()).isEqualTo(50L);
        assertThat(parse("{\"limits\":{\"cpu_ms\":300000}}").cpuMs()).as("Cloudflare's maximum").isEqualTo(300_000L);
        assertThat(parse("{\"limits\":{\"cpu_ms\":1}}").cpuMs()).isEqualTo(1L);
        assertThat(parse("{\"name\":\"x\"}").cpuMs()).isNull();
        assertThat(parse("{\"limits\":{}}").cpuMs()).as("limits without cpu_ms sets nothing").isNull();
    }

    @Test
    void aCpuMsOutsideCloudflaresRangeOrNotAnIntegerIsRefusedNamingIt() {
        for (String bad : new String[] {"0", "-5", "300001", "1.5", "\"50\"", "true", "null", "[50]"}) {
            assertThatThrownBy(() -> parse("{\"limits\":{\"cpu_ms\":" + bad + "}}")).as(bad)
                    .isInstanceOf(ConfigRefusedException.class)
                    .hasMessageContaining("limits.cpu_ms must be a whole number of milliseconds from 1 to 300000");
        }
    }

    @Test
    void subrequestsAndUnknownSubKeysAreRefusedByNameWithEveryOtherProblemInOneError() {
        assertThatThrownBy(() -> parse("{\"limits\":{\"cpu_ms\":0,\"subrequests\":100,\"memory_mb\":1},\"main\":3}"))
                .isInstanceOfSatisfying(ConfigRefusedException.class, e -> assertThat(e.reasons()).hasSize(4))
                .hasMessageContaining("limits.cpu_ms must be a whole number of milliseconds from 1 to 300000 (got 0)")
                .hasMessageContaining("key \"limits.subrequests\" is not supported by cellgate: a per-event subrequest limit is not implemented")
                .hasMessageContaining("key \"limits.memory_mb\" is not supported by cellgate (Wrangler's limits has cpu_ms and subrequests)")
                .hasMessageContaining("\"main\" must be a string");
    }

    @Test
    void limitsThatIsNotAnObjectIsRefused() {
        assertThatThrownBy(() -> parse("{\"limits\":50}")).hasMessageContaining("\"limits\" must be an object ({\"cpu_ms\": 50})");
    }

    @Test
    void environmentsInheritLimitsUnlessTheySetTheirOwn() {
        JsonObject raw = new JsonObject("{\"name\":\"app\",\"limits\":{\"cpu_ms\":50},"
                + "\"env\":{\"staging\":{},\"heavy\":{\"limits\":{\"cpu_ms\":120000}}}}");
        assertThat(WranglerConfig.parse(raw, "wrangler.json", "staging").cpuMs()).isEqualTo(50L);
        assertThat(WranglerConfig.parse(raw, "wrangler.json", "heavy").cpuMs()).isEqualTo(120_000L);
    }
}
