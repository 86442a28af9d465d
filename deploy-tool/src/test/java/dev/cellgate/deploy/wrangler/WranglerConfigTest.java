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

    static final String SEVEN_PROBLEMS = "{\"name\":\"x\",\"vectorize\":[],\"ai\":{},\"site\":{},\"limits\":{\"subrequests\":5},"
            + "\"triggers\":{\"crons\":[\"61 * * * *\"]},\"no_such\":1,\"main\":3}";

    /** The check of "every refusal in one error", used on the real code and on the broken variant. */
    static void allSevenReported(String config) {
        assertThatThrownBy(() -> parse(config))
                .isInstanceOfSatisfying(ConfigRefusedException.class, e -> assertThat(e.reasons()).hasSize(7))
                .hasMessageContaining("7 problems")
                .hasMessageContaining("key \"vectorize\" is not supported by cellgate: Vectorize indexes are not implemented")
                .hasMessageContaining("key \"ai\" is not supported").hasMessageContaining("key \"site\" is not supported")
                .hasMessageContaining("key \"limits.subrequests\" is not supported").hasMessageContaining("invalid cron expression \"61 * * * *\"")
                .hasMessageContaining("key \"no_such\" is not supported by cellgate (it is not in Wrangler's configuration schema")
                .hasMessageContaining("\"main\" must be a string");
    }

    @Test
    void refusedAndUnknownKeysAreRefusedByNameAllInOneError() {
        allSevenReported(SEVEN_PROBLEMS);
    }

    @Test
    void theBrokenVariantThatStopsAtTheFirstRefusalIsCaught() {
        Problems.brokenStopAtFirstRefusal = true;
        try {
            assertThatThrownBy(() -> allSevenReported(SEVEN_PROBLEMS)).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("size");
        } finally {
            Problems.brokenStopAtFirstRefusal = false;
        }
    }

    @Test
    void cronTriggersAreAcceptedAsWritten() {
        assertThat(parse("{\"triggers\":{\"crons\":[\"*/5 * * * *\",\"0 18 * * friL\",\"59 23 LW * *\"]}}").triggers().encode())
                .isEqualTo("{\"crons\":[\"*/5 * * * *\",\"0 18 * * friL\",\"59 23 LW * *\"]}");
    }

    @Test
    void everyInvalidCronIsRefusedByNameInOneError() {
        assertThatThrownBy(() -> parse("{\"triggers\":{\"crons\":[\"* * * *\",\"0 0 * * *\",\"0 0 32 * *\",7]}}"))
                .isInstanceOfSatisfying(ConfigRefusedException.class, e -> assertThat(e.reasons()).hasSize(3))
                .hasMessageContaining("invalid cron expression \"* * * *\"")
                .hasMessageContaining("invalid cron expression \"0 0 32 * *\"")
                .hasMessageContaining("triggers.crons[3] must be a string");
        assertThatThrownBy(() -> parse("{\"triggers\":{\"crons\":[],\"schedule\":1}}"))
                .hasMessageContaining("triggers.schedule");
    }

    @Test
    void anEmptyCronListSchedulesNothingAndIsAccepted() {
        assertThat(parse("{\"triggers\":{\"crons\":[]}}").triggers().encode()).isEqualTo("{\"crons\":[]}");
    }

    @Test
    void hostingMetadataIsKeptWithOneNoteEach() {
        WranglerConfig c = parse("{\"routes\":[\"a.example/*\"],\"workers_dev\":false,\"observability\":{\"enabled\":true}}");
        assertThat(c.hosting().fieldNames()).containsExactlyInAnyOrder("routes", "workers_dev", "observability");
        assertThat(c.notes()).hasSize(3).allMatch(n -> n.startsWith("note: ") && n.contains(" has no effect on a self-hosted fleet ("));
    }

    @Test
    void theBundlerAndBuildKeysAreRead() {
        WranglerConfig c = parse("{\"define\":{\"X\":\"1\"},\"alias\":{\"a\":\"./b\"},\"tsconfig\":\"t.json\",\"minify\":true,"
                + "\"keep_names\":false,\"jsx_factory\":\"h\",\"jsx_fragment\":\"F\",\"build\":{\"command\":\"make\",\"cwd\":\"x\"}}");
        assertThat(c.bundling()).isEqualTo(new WranglerConfig.Bundling(Map.of("X", "1"), Map.of("a", "./b"), "t.json", true, false, "h", "F"));
        assertThat(c.build()).isEqualTo(new WranglerConfig.Build("make", "x"));
        assertThat(parse("{}").bundling().keepNames()).as("keep_names defaults to true, as in Wrangler").isTrue();
        assertThatThrownBy(() -> parse("{\"define\":{\"X\":1}}")).hasMessageContaining("define.X must be a string");
        assertThatThrownBy(() -> parse("{\"build\":{\"command\":\"a\",\"upload\":{}}}")).hasMessageContaining("build key \"upload\"");
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
    void compatibilityFlagsTheRuntimeDoesNotActOnAreRefusedByNameAllInOneError() {
        assertThatThrownBy(() -> parse("{\"compatibility_flags\":[\"nodejs_compatt\",\"nodejs_compat\",\"streams_enable_constructors\"],"
                + "\"no_such\":1}"))
                .isInstanceOfSatisfying(ConfigRefusedException.class, e -> assertThat(e.reasons()).containsExactly(
                        "key \"no_such\" is not supported by cellgate (it is not in Wrangler's configuration schema;"
                                + " docs/configuration.md lists every key)",
                        "compatibility flag \"nodejs_compatt\" is not acted on by cellgate (it would be accepted and ignored);"
                                + " remove it, or see docs/configuration.md for the flags cellgate implements",
                        "compatibility flag \"streams_enable_constructors\" is not acted on by cellgate (it would be accepted"
                                + " and ignored); remove it, or see docs/configuration.md for the flags cellgate implements"));
    }

    @Test
    void compatibilityFlagsTheRuntimeActsOnAreAccepted() {
        WranglerConfig c = parse("{\"compatibility_flags\":[\"nodejs_compat\",\"no_nodejs_compat_v2\",\"enable_ctx_exports\","
                + "\"disable_nodejs_fs_module\"]}");
        assertThat(c.compatibilityFlags()).containsExactly("nodejs_compat", "no_nodejs_compat_v2", "enable_ctx_exports",
                "disable_nodejs_fs_module");
    }

    @Test
    void jsoncKeepsStringsIntact() {
        assertThat(Jsonc.strip("{\"a\":\"// not a comment\",\"b\":\"/* nor this */\",\"c\":\"esc\\\"aped // x\"}"))
                .isEqualTo("{\"a\":\"// not a comment\",\"b\":\"/* nor this */\",\"c\":\"esc\\\"aped // x\"}");
        assertThatThrownBy(() -> Jsonc.strip("{ /* open")).hasMessageContaining("unterminated");
    }

    @Test
    void d1DatabasesBecomeManifestBindings() {
        WranglerConfig c = parse("{\"d1_databases\":[{\"binding\":\"DB\",\"database_name\":\"app\",\"database_id\":\"4b1c\","
                + "\"preview_database_id\":\"p\",\"migrations_dir\":\"db/migrations\",\"migrations_table\":\"m\"},"
                + "{\"binding\":\"LOCAL\",\"database_name\":\"local-only\"}]}");
        assertThat(c.bindings()).containsExactly(new dev.cellgate.core.deploy.bindings.D1DatabaseBinding("DB", "app", "4b1c"),
                new dev.cellgate.core.deploy.bindings.D1DatabaseBinding("LOCAL", "local-only", null));
        assertThatThrownBy(() -> parse("{\"d1_databases\":[{\"binding\":\"DB\",\"database_id\":\"1\",\"remote\":true}]}"))
                .hasMessageContaining("d1_databases key \"remote\" is not supported");
        assertThatThrownBy(() -> parse("{\"d1_databases\":[{\"binding\":\"DB\"}]}"))
                .hasMessageContaining("each of \"d1_databases\" needs \"binding\" and a \"database_id\" or \"database_name\"");
    }

    @Test
    void kvNamespacesAndR2BucketsBecomeManifestBindings() {
        WranglerConfig c = parse("{\"kv_namespaces\":[{\"binding\":\"CACHE\",\"id\":\"0f2a\",\"preview_id\":\"p\"}],"
                + "\"r2_buckets\":[{\"binding\":\"FILES\",\"bucket_name\":\"my-files\"}]}");
        assertThat(c.bindings()).containsExactly(new dev.cellgate.core.deploy.bindings.KvNamespaceBinding("CACHE", "0f2a"),
                new dev.cellgate.core.deploy.bindings.R2BucketBinding("FILES", "my-files", null));
        assertThatThrownBy(() -> parse("{\"kv_namespaces\":[{\"binding\":\"C\",\"id\":\"1\",\"remote\":true}]}"))
                .hasMessageContaining("kv_namespaces key \"remote\" is not supported");
        assertThatThrownBy(() -> parse("{\"kv_namespaces\":[{\"binding\":\"C\"}]}"))
                .hasMessageContaining("each of \"kv_namespaces\" needs \"binding\" and \"id\"");
        assertThatThrownBy(() -> parse("{\"r2_buckets\":[{\"binding\":\"F\"}]}"))
                .hasMessageContaining("each of \"r2_buckets\" needs \"binding\" and \"bucket_name\"");
    }

}
