package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Module types in the manifest, and deployments pushed before there were any. */
class ManifestModuleTypesTest {

    private static Manifest manifest(List<Manifest.BlobRef> modules) {
        return new Manifest("d1", "w", 1, "index.js", modules, Map.of(), Map.of(), null, "2025-01-01", List.of(), null, List.of());
    }

    @Test
    void typesRoundTripByWranglerName() {
        Manifest m = manifest(List.of(new Manifest.BlobRef("index.js", "a", 1, ModuleType.ES_MODULE),
                new Manifest.BlobRef("lib/x.wasm", "b", 2, ModuleType.COMPILED_WASM),
                new Manifest.BlobRef("index.js.map", "c", 3, ModuleType.SOURCE_MAP)));
        JsonObject json = new JsonObject(new String(m.encode(), StandardCharsets.UTF_8));
        assertThat(json.getJsonArray("modules").getJsonObject(1).getString("type")).isEqualTo("CompiledWasm");
        Manifest back = Manifest.decode(m.encode());
        assertThat(back.modules()).extracting(Manifest.BlobRef::moduleType)
                .containsExactly(ModuleType.ES_MODULE, ModuleType.COMPILED_WASM, ModuleType.SOURCE_MAP);
    }

    @Test
    void aManifestWithoutTypesIsAllEsModules() {
        String old = "{\"id\":\"d0\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3}],\"vars\":{},\"durable_objects\":{},"
                + "\"migrations\":[],\"compatibility_date\":\"2025-01-01\",\"compatibility_flags\":[],\"triggers\":{},\"plugins\":[]}";
        Manifest m = Manifest.decode(old.getBytes(StandardCharsets.UTF_8));
        assertThat(m.modules().get(0).type()).isNull();
        assertThat(m.modules().get(0).moduleType()).isEqualTo(ModuleType.ES_MODULE);
        // and it is written back without a type, byte-compatible with what older nodes read
        assertThat(new JsonObject(new String(m.encode(), StandardCharsets.UTF_8)).getJsonArray("modules").getJsonObject(0)
                .containsKey("type")).isFalse();
        ScriptBundle b = new Deployment(m, Map.of("index.js", "x=1".getBytes(StandardCharsets.UTF_8))).toBundle(Map.of());
        assertThat(b.files().get("index.js").type()).isEqualTo(ModuleType.ES_MODULE);
        assertThat(b.modules()).containsEntry("index.js", "x=1");
    }

    @Test
    void anUnknownTypeIsAMalformedManifest() {
        String bad = "{\"id\":\"d0\",\"name\":\"w\",\"created_ms\":1,\"main\":\"index.js\","
                + "\"modules\":[{\"path\":\"index.js\",\"sha256\":\"aa\",\"size\":3,\"type\":\"Python\"}]}";
        assertThatThrownBy(() -> Manifest.decode(bad.getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("manifest is malformed").hasMessageContaining("unknown module type 'Python'");
    }

    @Test
    void theBundleCarriesBinaryModulesAsBytesAndKeepsJavaScriptAsText() {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", BundleModule.esModule("export default {}"));
        files.put("lib.cjs", new BundleModule(ModuleType.COMMON_JS, "module.exports = 1".getBytes(StandardCharsets.UTF_8)));
        files.put("x.bin", new BundleModule(ModuleType.DATA, new byte[] {(byte) 0xff, 0}));
        ScriptBundle b = ScriptBundle.of("d", "s", "index.js", files, Map.of(), Map.of(), "2025-01-01", List.of());
        assertThat(b.modules()).containsOnlyKeys("index.js", "lib.cjs");
        assertThat(b.files().get("x.bin").bytes()).containsExactly((byte) 0xff, 0);
    }

    @Test
    void theMainModuleMustBeAnEsModule() {
        Map<String, BundleModule> files = Map.of("index.js", new BundleModule(ModuleType.COMMON_JS, new byte[0]));
        assertThatThrownBy(() -> ScriptBundle.of("d", "s", "index.js", files, Map.of(), Map.of(), "2025-01-01", List.of()))
                .hasMessageContaining("main module 'index.js' is CommonJS: a module Worker's main module must be an ES module");
    }
}
