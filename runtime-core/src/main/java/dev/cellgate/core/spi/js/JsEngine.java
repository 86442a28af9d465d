package dev.cellgate.core.spi.js;

/**
 * A JavaScript engine: compiles deployments and creates isolated instances of them.
 * One per process; shared by every instance (compiled sources are cached here).
 */
public interface JsEngine extends AutoCloseable {

    /** What runs the code, for the startup log, {@code /state} and {@code /metrics}. */
    EngineInfo info();

    /**
     * Compiles and checks a deployment: every module parses, the main module evaluates, every
     * Durable Object binding names an exported class.
     *
     * @throws ScriptLoadException with the JavaScript error when the bundle does not load
     */
    LoadedScript load(ScriptBundle bundle) throws ScriptLoadException;

    /**
     * The objects this engine's instances passed by reference over RPC, for calls from other nodes
     * ({@link StubChannel#callExport}); null for an engine without JS RPC by reference.
     */
    default ExportedObjects exportedObjects() {
        return null;
    }

    @Override
    void close();
}
