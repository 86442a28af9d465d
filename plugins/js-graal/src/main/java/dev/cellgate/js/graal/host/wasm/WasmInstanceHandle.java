package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.types.Export;
import org.graalvm.polyglot.HostAccess;

/** A {@code WebAssembly.Instance}: its exports by index of the module's export list. */
public final class WasmInstanceHandle {
    private final Instance instance;

    WasmInstanceHandle(Instance instance) {
        this.instance = instance;
    }

    @HostAccess.Export
    public boolean failed() {
        return false;
    }

    private Export export(int i) {
        return instance.module().exportSection().getExport(i);
    }

    @HostAccess.Export
    public WasmFunction function(int exportIndex) {
        return new WasmFunction(instance, export(exportIndex).index());
    }

    /** The memory: a LinearMemory (this engine makes every memory one), shared with its importers. */
    @HostAccess.Export
    public Object memory(int exportIndex) {
        Memory m = instance.memory(export(exportIndex).index());
        return m;
    }

    @HostAccess.Export
    public WasmTable table(int exportIndex) {
        return new WasmTable(instance.table(export(exportIndex).index()));
    }

    @HostAccess.Export
    public WasmGlobal global(int exportIndex) {
        return new WasmGlobal(instance.global(export(exportIndex).index()));
    }
}
