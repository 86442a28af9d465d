package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WranglerConfigTest {
    static WranglerConfig parse(String json) {
        return WranglerConfig.parse(new JsonObject(Jsonc.strip(json)), "wrangler.jsonc");
    }

    @Test
    void theSupportedSubsetParses() {
        WranglerConfig c = parse("""
                {
                  "$schema": "node_modules/wrangler/config-schema.json",
                  "name": "app", /* block
                  comment */ "main": "src/index.ts", // line comment with "quotes"
                  "compatibility_date": "2025-04-01",
                  "compatibility_flags": ["nodejs_compat",],
                  "vars": { "URL": "https://x//y" },
                  "durable_objects": { "bindings": [ { "name": "R", "class_name": "Room" } ] },
                  "migrations": [ { "tag": "v1", "new_sqlite_classes": ["Room"] } ],
                  "triggers": { "crons": [] },
                }
                """);
        assertThat(c.name()).isEqualTo("app");
        assertThat(c.main()).isEqualTo("src/index.ts");
        assertThat(c.vars()).containsExactly(Map.entry("URL", "https://x//y"));
        assertThat(c.durableObjects()).containsExactly(Map.entry("R", "Room"));
        assertThat(c.compatibilityFlags()).containsExactly("nodejs_compat");
    }

    @Test
    void everyOtherKeyIsRefusedByName() {
        for (String key : new String[] {"kv_namespaces", "r2_buckets", "d1_databases", "routes", "account_id", "workers_dev",
                "env", "services", "queues", "build", "site", "preserve_file_names", "placement", "limits", "observability"}) {
            assertThatThrownBy(() -> parse("{\"name\":\"x\",\"" + key + "\":{}}")).as(key)
                    .hasMessageContaining("key \"" + key + "\" is not supported by cellgate");
        }
    }

    @Test
    void theModuleKeysAreReadAndTheirShapesChecked() {
        WranglerConfig c = parse("{\"rules\":[{\"type\":\"Text\",\"globs\":[\"**/*.md\"],\"fallthrough\":true}],"
                + "\"find_additional_modules\":true,\"base_dir\":\"src\",\"no_bundle\":false,\"upload_source_maps\":true}");
        assertThat(c.modules().rules().size()).isEqualTo(1);
        assertThat(c.modules().findAdditionalModules()).isTrue();
        assertThat(c.modules().baseDir()).isEqualTo("src");
        assertThat(c.modules().uploadSourceMaps()).isTrue();
        assertThatThrownBy(() -> parse("{\"rules\":{}}")).hasMessageContaining("\"rules\" must be an array");
        assertThatThrownBy(() -> parse("{\"rules\":[{\"globs\":[]}]}")).hasMessageContaining("needs a \"type\" and \"globs\"");
        assertThatThrownBy(() -> parse("{\"rules\":[{\"type\":\"Text\",\"globs\":[],\"x\":1}]}")).hasMessageContaining("rule key \"x\"");
        assertThatThrownBy(() -> parse("{\"no_bundle\":\"yes\"}")).hasMessageContaining("\"no_bundle\" must be true or false");
    }

    @Test
    void wrongShapesAreRefused() {
        assertThatThrownBy(() -> parse("{\"compatibility_date\":\"2025-4-1\"}")).hasMessageContaining("YYYY-MM-DD");
        assertThatThrownBy(() -> parse("{\"vars\":{\"N\":3}}")).hasMessageContaining("vars.N must be a string");
        assertThatThrownBy(() -> parse("{\"durable_objects\":{\"bindings\":[{\"name\":\"A\"}]}}")).hasMessageContaining("needs \"name\" and \"class_name\"");
        assertThatThrownBy(() -> parse("{\"durable_objects\":{\"bindings\":[{\"name\":\"A\",\"class_name\":\"X\"},{\"name\":\"A\",\"class_name\":\"Y\"}]}}"))
                .hasMessageContaining("declared twice");
        assertThatThrownBy(() -> parse("{\"name\":\"has space\"}")).hasMessageContaining("\"name\" must be");
        assertThatThrownBy(() -> parse("{\"main\":3}")).hasMessageContaining("\"main\" must be a string");
    }

    @Test
    void jsoncKeepsStringsIntact() {
        assertThat(Jsonc.strip("{\"a\":\"// not a comment\",\"b\":\"/* nor this */\",\"c\":\"esc\\\"aped // x\"}"))
                .isEqualTo("{\"a\":\"// not a comment\",\"b\":\"/* nor this */\",\"c\":\"esc\\\"aped // x\"}");
        assertThatThrownBy(() -> Jsonc.strip("{ /* open")).hasMessageContaining("unterminated");
    }
}
