package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --env NAME}: Wrangler's inheritance rules (inherited, not inherited, top level only). */
class WranglerEnvironmentsTest {
    static final String TOML = """
            name = "app"
            main = "src/index.js"
            compatibility_date = "2025-04-01"
            compatibility_flags = ["nodejs_compat"]
            minify = true
            define = { FLAVOUR = '"top"' }
            routes = ["app.example/*"]

            [vars]
            GREETING = "top"

            [[durable_objects.bindings]]
            name = "ROOMS"
            class_name = "Room"

            [env.staging]
            compatibility_date = "2025-06-01"
            routes = ["staging.example/*"]

            [env.staging.vars]
            GREETING = "staging"

            [env.named]
            name = "app-other"
            [env.named.durable_objects]
            bindings = [{ name = "ROOMS", class_name = "Room" }]
            """;

    static WranglerConfig read(String env) {
        return WranglerConfig.parse(Toml.parse(TOML), "wrangler.toml", env);
    }

    @Test
    void theTopLevelIgnoresTheEnvironments() {
        WranglerConfig c = read(null);
        assertThat(c.name()).isEqualTo("app");
        assertThat(c.vars()).isEqualTo(Map.of("GREETING", "top"));
        assertThat(c.environment()).isNull();
    }

    @Test
    void inheritedKeysComeFromTheTopUnlessTheEnvironmentSetsThem() {
        WranglerConfig c = read("staging");
        assertThat(c.name()).as("<name>-<env>, as Wrangler names it").isEqualTo("app-staging");
        assertThat(c.main()).isEqualTo("src/index.js");
        assertThat(c.compatibilityFlags()).containsExactly("nodejs_compat");
        assertThat(c.bundling().minify()).isTrue();
        assertThat(c.compatibilityDate()).isEqualTo("2025-06-01");
        assertThat(c.hosting().getJsonArray("routes").getString(0)).isEqualTo("staging.example/*");
        assertThat(c.environment()).isEqualTo("staging");
    }

    @Test
    void nonInheritedKeysAreOnlyWhatTheEnvironmentSaysAndAMissingOneIsNoted() {
        WranglerConfig c = read("staging");
        assertThat(c.vars()).isEqualTo(Map.of("GREETING", "staging"));
        assertThat(c.durableObjects()).as("durable_objects is not inherited").isEmpty();
        assertThat(c.bundling().define()).as("define is not inherited").isEmpty();
        assertThat(c.notes()).anyMatch(n -> n.contains("\"durable_objects\" exists at the top level but not in env.staging"))
                .anyMatch(n -> n.contains("\"define\" exists at the top level but not in env.staging"));
        WranglerConfig named = read("named");
        assertThat(named.name()).isEqualTo("app-other");
        assertThat(named.durableObjects()).isEqualTo(Map.of("ROOMS", "Room"));
        assertThat(named.vars()).isEmpty();
    }

    @Test
    void anUnknownEnvironmentAndATopLevelOnlyKeyInAnEnvironmentAreRefused() {
        assertThatThrownBy(() -> read("prod")).hasMessageContaining("no environment named \"prod\"")
                .hasMessageContaining("[named, staging]");
        JsonObject o = new JsonObject("{\"name\":\"a\",\"env\":{\"e\":{\"keep_vars\":true,\"send_metrics\":false,\"ai\":{}}}}");
        assertThatThrownBy(() -> WranglerConfig.parse(o, "wrangler.json", "e")).isInstanceOfSatisfying(ConfigRefusedException.class,
                        ex -> assertThat(ex.reasons()).hasSize(3))
                .hasMessageContaining("env.e.keep_vars: \"keep_vars\" is only valid at the top level")
                .hasMessageContaining("env.e.send_metrics").hasMessageContaining("key \"ai\" is not supported");
    }

    @Test
    void withoutAnyEnvironmentTheTopLevelIsUsedUnderTheSuffixedNameWithANote() {
        WranglerConfig c = WranglerConfig.parse(new JsonObject("{\"name\":\"a\",\"vars\":{\"A\":\"1\"}}"), "wrangler.json", "dev");
        assertThat(c.name()).isEqualTo("a-dev");
        assertThat(c.vars()).isEqualTo(Map.of("A", "1"));
        assertThat(c.notes()).anyMatch(n -> n.contains("no environment named \"dev\""));
    }
}
