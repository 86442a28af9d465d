package dev.cellgate.core.logic;

import static dev.cellgate.core.logic.NodeCompat.Availability.ABSENT;
import static dev.cellgate.core.logic.NodeCompat.Availability.NOT_IMPLEMENTED;
import static dev.cellgate.core.logic.NodeCompat.Availability.PROVIDED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The compatibility-date rules, as observed on workerd (miniflare 4.20260730.0) for each date named here. */
class NodeCompatTest {
    private static NodeCompat at(String date, String... flags) {
        return NodeCompat.of(date, List.of(flags));
    }

    @Test
    void withoutAFlagOnlyNodeProcessResolves() {
        NodeCompat none = at("2026-07-01");
        assertThat(none.nodejsCompat()).isFalse();
        assertThat(none.availability("process")).isEqualTo(PROVIDED);
        assertThat(none.availability("buffer")).isEqualTo(ABSENT);
        assertThat(none.availability("async_hooks")).isEqualTo(ABSENT);
        assertThat(none.resolve("buffer")).isNull();
        assertThat(none.resolve("node:buffer")).isEqualTo("buffer");
        assertThat(none.asyncLocalStorage()).isFalse();
    }

    @Test
    void nodejsAlsGivesAsyncHooksAlone() {
        NodeCompat als = at("2025-01-01", "nodejs_als");
        assertThat(als.availability("async_hooks")).isEqualTo(PROVIDED);
        assertThat(als.availability("buffer")).isEqualTo(ABSENT);
        assertThat(als.asyncLocalStorage()).isTrue();
        assertThat(als.v2()).isFalse();
    }

    @Test
    void v2IsImpliedFrom20240923() {
        assertThat(at("2024-09-22", "nodejs_compat").v2()).isFalse();
        assertThat(at("2024-09-23", "nodejs_compat").v2()).isTrue();
        assertThat(at("2024-09-23", "nodejs_compat", "no_nodejs_compat_v2").v2()).isFalse();
        assertThat(at("2024-01-01", "nodejs_compat_v2").v2()).isTrue();
        // bare specifiers only with v2; node:test only with its prefix
        assertThat(at("2024-09-22", "nodejs_compat").resolve("buffer")).isNull();
        assertThat(at("2024-09-23", "nodejs_compat").resolve("buffer")).isEqualTo("buffer");
        assertThat(at("2024-09-23", "nodejs_compat").resolve("test")).isNull();
        assertThat(at("2024-09-23", "nodejs_compat").resolve("node:test")).isEqualTo("test");
        assertThat(at("2024-09-22", "nodejs_compat").availability("sys")).isEqualTo(ABSENT);
        assertThat(at("2024-09-23", "nodejs_compat").availability("sys")).isEqualTo(PROVIDED);
    }

    @Test
    void processEnvIsPopulatedFrom20250401() {
        assertThat(at("2025-03-31", "nodejs_compat").populateProcessEnv()).isFalse();
        assertThat(at("2025-04-01", "nodejs_compat").populateProcessEnv()).isTrue();
        assertThat(at("2025-03-31", "nodejs_compat", "nodejs_compat_populate_process_env").populateProcessEnv()).isTrue();
        assertThat(at("2025-04-01", "nodejs_compat", "nodejs_compat_do_not_populate_process_env").populateProcessEnv()).isFalse();
        assertThat(at("2025-04-01").populateProcessEnv()).isFalse();
    }

    @Test
    void processV2From20250915() {
        assertThat(at("2025-09-14", "nodejs_compat").processV2()).isFalse();
        assertThat(at("2025-09-15", "nodejs_compat").processV2()).isTrue();
        assertThat(at("2025-09-15", "nodejs_compat", "disable_nodejs_process_v2").processV2()).isFalse();
    }

    @Test
    void globalTimersAreNodesFrom20260210() {
        assertThat(at("2026-02-09", "nodejs_compat").globalTimers()).isFalse();
        assertThat(at("2026-02-10", "nodejs_compat").globalTimers()).isTrue();
        assertThat(at("2025-06-01", "nodejs_compat", "enable_nodejs_global_timers").globalTimers()).isTrue();
        assertThat(at("2026-07-01", "nodejs_compat", "no_nodejs_global_timers").globalTimers()).isFalse();
        assertThat(at("2026-07-01").globalTimers()).isFalse();
    }

    @Test
    void gatedModulesFollowTheirDateAndFlags() {
        assertThat(at("2025-09-14", "nodejs_compat").availability("os")).isEqualTo(ABSENT);
        assertThat(at("2025-09-15", "nodejs_compat").availability("os")).isEqualTo(PROVIDED);
        assertThat(at("2025-01-01", "nodejs_compat", "enable_nodejs_os_module").availability("os")).isEqualTo(PROVIDED);
        assertThat(at("2026-01-01", "nodejs_compat", "disable_nodejs_os_module").availability("os")).isEqualTo(ABSENT);
        assertThat(at("2025-12-03", "nodejs_compat").availability("punycode")).isEqualTo(ABSENT);
        assertThat(at("2025-12-04", "nodejs_compat").availability("punycode")).isEqualTo(PROVIDED);
        // nodejs_compat_v2 alone implies none of the dated modules
        assertThat(at("2026-07-01", "nodejs_compat_v2").availability("os")).isEqualTo(ABSENT);
        assertThat(at("2025-08-14", "nodejs_compat").availability("http")).isEqualTo(ABSENT);
        assertThat(at("2025-08-15", "nodejs_compat").availability("http")).isEqualTo(NOT_IMPLEMENTED);
        assertThat(at("2026-03-16", "nodejs_compat").availability("child_process")).isEqualTo(ABSENT);
        assertThat(at("2026-03-17", "nodejs_compat").availability("child_process")).isEqualTo(NOT_IMPLEMENTED);
    }

    @Test
    void baseModulesWorkerdHasButCellgateDoesNotImplementAreNamed() {
        NodeCompat c = at("2024-01-01", "nodejs_compat");
        assertThat(c.availability("net")).isEqualTo(NOT_IMPLEMENTED);
        assertThat(c.availability("buffer")).isEqualTo(PROVIDED);
        assertThat(c.availability("fs")).isEqualTo(ABSENT);
        assertThat(NodeCompat.builtinName("node:left-pad", true)).isNull();
        assertThat(NodeCompat.noSuchModule("node:fs")).isEqualTo("No such module \"node:fs\".");
    }
}
