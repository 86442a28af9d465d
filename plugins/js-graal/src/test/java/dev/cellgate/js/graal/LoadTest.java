package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Loading deployments: what loads, what is refused and how the refusal reads. */
class LoadTest {
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @Test
    void aSyntaxErrorAnywhereRefusesTheDeploymentWithItsLocation() {
        assertThatThrownBy(() -> engine.load(Bundles.of(Map.of("index.js", "export default {}", "unused.js", "let x = ;"), Map.of(), Map.of())))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("does not parse")
                .hasMessageContaining("unused.js");
    }

    @Test
    void aSyntaxErrorInTheMainModuleIsAParseFailureToo() {
        assertThatThrownBy(() -> engine.load(Bundles.single("export default { fetch( { return 1; } };")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("does not parse")
                .hasMessageContaining("index.js:1:");
    }

    @Test
    void aSyntaxErrorTheCodeThrowsIsNotAParseFailure() {
        assertThatThrownBy(() -> engine.load(Bundles.single("JSON.parse('{');")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("failed to load")
                .hasMessageContaining("SyntaxError");
    }

    @Test
    void aThrowingTopLevelRefusesTheDeployment() {
        assertThatThrownBy(() -> engine.load(Bundles.single("throw new RangeError('at load');")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("RangeError: at load");
    }

    @Test
    void aMissingDurableObjectClassRefusesTheDeployment() {
        assertThatThrownBy(() -> engine.load(Bundles.of(Map.of("index.js", "export class A {} export default {}"), Map.of(), Map.of("NS", "B"))))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("Durable Object binding NS names class B")
                .hasMessageContaining("[A]");
    }

    @Test
    void anUnsupportedModuleIsNamed() {
        assertThatThrownBy(() -> engine.load(Bundles.single("import { connect } from 'cloudflare:sockets'; export default {}")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("module 'cloudflare:sockets' is not supported by cellgate");
        // node: modules follow nodejs_compat (NodeConformanceTest): without it, workerd's own refusal
        assertThatThrownBy(() -> engine.load(Bundles.single("import { readFileSync } from 'node:fs'; export default {}")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("No such module \"node:fs\".");
    }

    @Test
    void aMissingRelativeImportIsNamed() {
        assertThatThrownBy(() -> engine.load(Bundles.single("import { x } from './nope.js'; export default {}")))
                .isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("nope.js");
    }

    @Test
    void modulesInSubdirectoriesImportEachOther() throws Exception {
        LoadedScript script = engine.load(new ScriptBundle("d", "s", "src/index.js", Map.of(
                "src/index.js", "import { v } from './lib/v.js'; export class Room {} export default { fetch() { return new Response(v); } }",
                "src/lib/v.js", "export { v } from '../../shared/w.js';",
                "shared/w.js", "export const v = 'nested';"), Map.of(), Map.of(), "2025-01-01", java.util.List.of()));
        assertThat(script.exportedClasses()).containsExactly("Room");
        try (TestWorker w = engine.worker(script.bundle())) {
            assertThat(w.text("http://x.test/")).isEqualTo("nested");
        }
    }

    @Test
    void aGlobalApiWeDoNotSupportThrowsATypeErrorNamingIt() throws Exception {
        try (TestWorker w = engine.worker(Bundles.single("""
                export default { fetch() {
                  const out = [];
                  for (const f of [() => new WebSocket('wss://example.com/'),
                                   () => new Response('x').formData(), () => structuredClone(1, { transfer: [new ArrayBuffer(1)] })]) {
                    try { const r = f(); if (r && r.then) r.catch(() => {}); out.push(r && r.then ? 'promise' : 'no error'); }
                    catch (e) { out.push(e.constructor.name + ': ' + e.message); }
                  }
                  return Response.json(out);
                } }"""))) {
            assertThat(w.text("http://x.test/")).isEqualTo("[\"TypeError: new WebSocket(url) (outbound WebSocket connections) is not supported by cellgate\","
                    + "\"promise\",\"TypeError: structuredClone transfer lists is not supported by cellgate\"]");
        }
    }

    @Test
    void engineInfoSaysWhyItIsInterpreted() {
        EngineInfo info = engine.engine.info();
        assertThat(info.name()).startsWith("GraalJS ");
        boolean jvmci = ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+EnableJVMCI");
        if (!jvmci) {
            assertThat(info.mode()).isEqualTo("interpreted");
            assertThat(info.optimizing()).isFalse();
            assertThat(info.detail()).contains("JVMCI is not enabled");
        } else {
            assertThat(info.mode()).isIn("jit", "interpreted");
        }
    }
}
