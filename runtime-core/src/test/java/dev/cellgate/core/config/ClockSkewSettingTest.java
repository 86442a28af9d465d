package dev.cellgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** CELLD_CLOCK_SKEW_MS (SPEC §20): 2000 by default, a quarter of a short TTL, always below TTL/3. */
class ClockSkewSettingTest {
    @Test
    void theDefaultIsTwoSecondsOrAQuarterOfAShortTtl() {
        assertThat(ConfigLoader.load(null, Map.of()).clockSkewMs()).isEqualTo(2_000);
        assertThat(ConfigLoader.load(null, Map.of("CELLD_TTL_MS", "3000")).clockSkewMs()).isEqualTo(750);
        assertThat(ConfigLoader.load(null, Map.of("CELLD_CLOCK_SKEW_MS", "500")).clockSkewMs()).isEqualTo(500);
    }

    @Test
    void aMarginNotBelowATtlThirdStopsTheNodeNamingTheSetting() {
        assertThat(ConfigLoader.load(null, Map.of("CELLD_CLOCK_SKEW_MS", "3333")).clockSkewMs()).isEqualTo(3_333);
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("CELLD_CLOCK_SKEW_MS", "3334")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("invalid CELLD_CLOCK_SKEW_MS=3334")
                .hasMessageContaining("below CELLD_TTL_MS/3");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("CELLD_CLOCK_SKEW_MS", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("CELLD_CLOCK_SKEW_MS");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("CELLD_CLOCK_SKEW_MS", "2s")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("CELLD_CLOCK_SKEW_MS");
    }

    @Test
    void theHelpNamesIt() {
        assertThat(Settings.help()).contains("CELLD_CLOCK_SKEW_MS").contains("clock_skew_ms").contains("CELLD_TTL_MS/3");
    }
}
