package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.ModuleType;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.Test;

/** Wrangler's rule semantics, decided without I/O. */
class ModuleRulesTest {
    static ModuleRules rules(String json) {
        return ModuleRules.parse(new JsonArray(json));
    }

    @Test
    void theDefaultsAreWrangler4Defaults() {
        ModuleRules r = rules("[]");
        assertThat(r.typeOf("a.txt")).isEqualTo(ModuleType.TEXT);
        assertThat(r.typeOf("deep/dir/page.html")).isEqualTo(ModuleType.TEXT);
        assertThat(r.typeOf("q.sql")).isEqualTo(ModuleType.TEXT);
        assertThat(r.typeOf("x.bin")).isEqualTo(ModuleType.DATA);
        assertThat(r.typeOf("m.wasm")).isEqualTo(ModuleType.COMPILED_WASM);
        assertThat(r.typeOf("index.js")).isNull();
        assertThat(r.copiedExtensions()).containsOnlyKeys(".txt", ".html", ".sql", ".bin", ".wasm");
    }

    @Test
    void aUserRuleComesFirstAndWithoutFallthroughEndsItsType() {
        ModuleRules r = rules("[{\"type\":\"Data\",\"globs\":[\"**/*.txt\"]}]");
        assertThat(r.typeOf("a.txt")).isEqualTo(ModuleType.DATA);
        assertThatThrownBy(() -> r.typeOf("b.bin")).hasMessageContaining("The file b.bin matched a module rule")
                .hasMessageContaining("fallthrough = true");
        ModuleRules f = rules("[{\"type\":\"Data\",\"globs\":[\"**/*.dat\"],\"fallthrough\":true}]");
        assertThat(f.typeOf("b.bin")).isEqualTo(ModuleType.DATA);
        assertThat(f.typeOf("c.dat")).isEqualTo(ModuleType.DATA);
    }

    @Test
    void globsMatchAsWranglersGlobToRegexp() {
        ModuleRules r = rules("[{\"type\":\"ESModule\",\"globs\":[\"lib/*.js\"]},{\"type\":\"CommonJS\",\"globs\":[\"**/*.cjs\"]}]");
        assertThat(r.typeOf("lib/a.js")).isEqualTo(ModuleType.ES_MODULE);
        assertThat(r.typeOf("lib/sub/a.js")).isNull();
        assertThat(r.typeOf("x.cjs")).isEqualTo(ModuleType.COMMON_JS);
        assertThat(r.typeOf("a/b/x.cjs")).isEqualTo(ModuleType.COMMON_JS);
    }

    @Test
    void aGlobEsbuildCannotBeToldIsRefusedByName() {
        assertThatThrownBy(() -> rules("[{\"type\":\"Text\",\"globs\":[\"templates/**\"],\"fallthrough\":true}]").copiedExtensions())
                .hasMessageContaining("the Text glob \"templates/**\" cannot be bundled by cellgate");
        assertThatThrownBy(() -> rules("[{\"type\":\"SourceMap\",\"globs\":[\"**/*.map\"]}]"))
                .hasMessageContaining("SourceMap is not a module rule type");
    }
}
