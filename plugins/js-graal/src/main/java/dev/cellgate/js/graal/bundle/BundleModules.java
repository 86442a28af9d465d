package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.host.wasm.WasmEngine;
import io.vertx.core.json.JsonArray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * The modules of one deployment that are not ES modules (CommonJS, Text, Data, CompiledWasm), as
 * {@code modules.js} asks for them. GraalJS loads every import as an ES module, so the file system
 * serves each such path as a two-line ES module whose default export this class provides
 * ({@link #esModuleFacade}): the same object for an {@code import} and a {@code require}, once per
 * context, as workerd does. Shared by every context of the deployment; what it hands out is copied
 * or immutable.
 */
public final class BundleModules {
    /** The built-in module every facade imports; evaluated first by the main wrapper, while the runtime is reachable. */
    static final String LOADER = BundleFileSystem.BUILTIN_ROOT + "bundle-modules.js";

    private final Map<String, BundleModule> byPath = new HashMap<>();
    private final Map<String, Source> commonJs = new HashMap<>();
    private final Map<String, Object> wasm = new HashMap<>();
    private final Map<String, String> sourceMaps = new HashMap<>();
    private final WasmEngine wasmEngine;
    private final NodeCompat node;

    /**
     * @param wasmEngine compiles each CompiledWasm module once per deployment (an invalid binary refuses the deployment)
     * @param node       the Worker's Node.js compatibility: which specifiers of a {@code require} are built-ins
     */
    BundleModules(ScriptBundle bundle, WasmEngine wasmEngine, NodeCompat node) throws dev.cellgate.core.spi.js.ScriptLoadException {
        this.wasmEngine = wasmEngine;
        this.node = node;
        for (Map.Entry<String, BundleModule> f : bundle.files().entrySet()) {
            String path = BundleFileSystem.bundlePath(f.getKey());
            BundleModule m = f.getValue();
            byPath.put(path, m);
            if (m.type() == ModuleType.COMMON_JS) {
                commonJs.put(path, commonJsSource(path, m.text()));
            } else if (m.type() == ModuleType.SOURCE_MAP && f.getKey().endsWith(".map")) {
                // Wrangler names a module's map after it: index.js.map is the map of index.js
                sourceMaps.put(BundleFileSystem.bundlePath(f.getKey().substring(0, f.getKey().length() - 4)), m.text());
            } else if (m.type() == ModuleType.COMPILED_WASM) {
                wasm.put(path, wasmEngine.compile(f.getKey(), m.bytes()));
            }
        }
    }

    /** The WebAssembly runtime, for wasm.js ({@code WebAssembly.validate}, {@code Memory}, {@code Table}, {@code Global}). */
    @HostAccess.Export
    public WasmEngine wasmEngine() {
        return wasmEngine;
    }

    /** Whether any module needs the loader (a bundle of ES modules only does not pay for it). */
    boolean any() {
        return byPath.values().stream().anyMatch(m -> m.type() != ModuleType.ES_MODULE && m.type() != ModuleType.SOURCE_MAP);
    }

    /**
     * The CommonJS wrapper: the names workerd puts in a CommonJS module's scope, an inner function
     * so that {@code arguments} is empty and {@code this} is {@code globalThis} (sloppy mode), and
     * the source starting on line 1 so that stack lines stay the file's.
     */
    static Source commonJsSource(String path, String text) {
        String wrapped = "(function (exports, require, module, __filename, __dirname) { return (function () {" + text
                + "\n}).call(globalThis); })";
        return Source.newBuilder("js", wrapped, path).cached(true).buildLiteral();
    }

    /** The ES module the file system serves at {@code path} for a non-ES module, or null. */
    byte[] esModuleFacade(String path) {
        BundleModule m = byPath.get(path);
        if (m == null || m.type() == ModuleType.ES_MODULE || m.type() == ModuleType.SOURCE_MAP) {
            return null;
        }
        String quoted = new JsonArray().add(path).encode();
        quoted = quoted.substring(1, quoted.length() - 1);
        return ("import { bundleModule } from " + new JsonArray().add(LOADER).encode().replaceAll("^\\[|\\]$", "") + ";\n"
                + "export default bundleModule(" + quoted + ");\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the bundle ships source maps: then stack traces are mapped (source-maps.js). */
    boolean hasSourceMaps() {
        return !sourceMaps.isEmpty();
    }

    /** The source map (JSON text) of the module at {@code path}, or null. */
    @HostAccess.Export
    public String sourceMap(String path) {
        return sourceMaps.get(path);
    }

    /** Whether {@code path} is a source map (served to no import). */
    boolean isSourceMap(String path) {
        BundleModule m = byPath.get(path);
        return m != null && m.type() == ModuleType.SOURCE_MAP;
    }

    // ---- what modules.js asks ----

    /** The module's Wrangler type name, or null when the bundle has no such module. */
    @HostAccess.Export
    public String type(String path) {
        BundleModule m = byPath.get(path);
        return m == null || m.type() == ModuleType.SOURCE_MAP ? null : m.type().wranglerName();
    }

    @HostAccess.Export
    public String text(String path) {
        return byPath.get(path).text();
    }

    /**
     * Whether each context gets its own copy of a Data module. Only the negative control of
     * {@code WasmAndDataSafetyTest} turns it off, to show that the test sees contexts share (and
     * corrupt) one deployment's bytes without the copy.
     */
    static volatile boolean copyDataPerContext = true;

    /** Read-only: JavaScript copies it into an ArrayBuffer of the context's own. */
    @HostAccess.Export
    public ByteBuffer data(String path) {
        ByteBuffer b = ByteBuffer.wrap(byPath.get(path).bytes());
        return copyDataPerContext ? b.asReadOnlyBuffer() : b;
    }

    @HostAccess.Export
    public boolean copiesData() {
        return copyDataPerContext;
    }

    /** The CommonJS module's wrapper function, evaluated in the calling context (its parse is cached by the engine). */
    @HostAccess.Export
    public Value commonJs(String path) {
        return Context.getCurrent().eval(commonJs.get(path));
    }

    /**
     * The namespace of the ES module {@code specifier} (a bundle path or a built-in such as
     * {@code cloudflare:workers}), evaluated synchronously for a {@code require}.
     */
    @HostAccess.Export
    public Value esModule(String specifier) {
        String quoted = new JsonArray().add(specifier).encode();
        Source s = Source.newBuilder("js", "export * as ns from " + quoted.substring(1, quoted.length() - 1) + ";",
                "/__cellgate/require-" + Integer.toHexString(specifier.hashCode()) + ".js")
                .mimeType(GraalLoadedScript.MODULE_MIME).buildLiteral();
        return Context.getCurrent().eval(s).getMember("ns");
    }

    /**
     * Whether {@code require(specifier)} names a module cellgate provides rather than a path in the
     * bundle: {@code cloudflare:workers}, a {@code node:} name, and under nodejs_compat_v2 a bare
     * Node built-in ({@code "buffer"}), which workerd resolves as such from CommonJS too.
     */
    @HostAccess.Export
    public boolean builtin(String specifier) {
        return BuiltinModules.pathOf(specifier, node) != null;
    }

    /** The compiled WebAssembly module behind a CompiledWasm path. */
    @HostAccess.Export
    public Object wasm(String path) {
        return wasm.get(path);
    }
}
