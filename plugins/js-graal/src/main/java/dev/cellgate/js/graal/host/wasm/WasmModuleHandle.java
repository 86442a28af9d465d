package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.GlobalInstance;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.ImportFunction;
import com.dylibso.chicory.runtime.ImportGlobal;
import com.dylibso.chicory.runtime.ImportMemory;
import com.dylibso.chicory.runtime.ImportTable;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.CustomSection;
import com.dylibso.chicory.wasm.types.Export;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionImport;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.GlobalImport;
import com.dylibso.chicory.wasm.types.Import;
import com.dylibso.chicory.wasm.types.MemoryImport;
import com.dylibso.chicory.wasm.types.MutabilityType;
import com.dylibso.chicory.wasm.types.UnknownCustomSection;
import com.dylibso.chicory.wasm.types.ValType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * A compiled {@code WebAssembly.Module}: parsed and validated once per deployment (a CompiledWasm
 * module), shared by every context; each {@link #instantiate} makes a fresh Chicory instance with
 * its own memory, tables and globals.
 */
public final class WasmModuleHandle {
    private final WasmModule module;
    private final Function<Instance, Machine> machines;
    private final String imports;
    private final String exports;

    WasmModuleHandle(WasmModule module, Function<Instance, Machine> machines) {
        this.module = module;
        this.machines = machines;
        this.imports = describeImports(module).encode();
        this.exports = describeExports(module).encode();
    }

    private static String kind(ExternalType t) {
        return switch (t) {
            case FUNCTION -> "function";
            case TABLE -> "table";
            case MEMORY -> "memory";
            case GLOBAL -> "global";
            case TAG -> "tag";
        };
    }

    /** [{module, name, kind, params?, results?, type?, mutable?}] in import order. */
    private static JsonArray describeImports(WasmModule m) {
        JsonArray out = new JsonArray();
        for (int i = 0; i < m.importSection().importCount(); i++) {
            Import im = m.importSection().getImport(i);
            JsonObject o = new JsonObject().put("module", im.module()).put("name", im.name()).put("kind", kind(im.importType()));
            if (im instanceof FunctionImport f) {
                FunctionType t = m.typeSection().getType(f.typeIndex());
                o.put("params", WasmTypes.signature(t.params())).put("results", WasmTypes.signature(t.returns()))
                        .put("numeric", WasmTypes.numeric(t.params()) && WasmTypes.numeric(t.returns()));
            } else if (im instanceof GlobalImport g) {
                o.put("type", WasmTypes.name(g.type())).put("mutable", g.mutabilityType() == MutabilityType.Var);
            }
            out.add(o);
        }
        return out;
    }

    private static JsonArray describeExports(WasmModule m) {
        JsonArray out = new JsonArray();
        for (int i = 0; i < m.exportSection().exportCount(); i++) {
            Export e = m.exportSection().getExport(i);
            out.add(new JsonObject().put("name", e.name()).put("kind", kind(e.exportType())));
        }
        return out;
    }

    /** {@code WebAssembly.Module.imports()} plus what wasm.js needs to coerce values, as JSON. */
    @HostAccess.Export
    public String imports() {
        return imports;
    }

    @HostAccess.Export
    public String exports() {
        return exports;
    }

    /** The contents of the custom sections named {@code name}, in order. */
    @HostAccess.Export
    public Object[] customSections(String name) {
        List<Object> out = new ArrayList<>();
        for (CustomSection s : module.customSections()) {
            if (s.name().equals(name) && s instanceof UnknownCustomSection u) {
                out.add(ByteBuffer.wrap(u.bytes().clone()));
            }
        }
        return out.toArray();
    }

    /**
     * A new instance. {@code resolved} holds one value per import, already checked by wasm.js: a
     * function (a JavaScript wrapper that coerces, or a {@link WasmFunction}), a {@link LinearMemory},
     * a {@link WasmTable}, a {@link WasmGlobal} or a coerced number. Answers a
     * {@link WasmInstanceHandle} or a {@link WasmFailure}.
     */
    @HostAccess.Export
    public Object instantiate(Value resolved) {
        ImportValues.Builder values = ImportValues.builder();
        for (int i = 0; i < module.importSection().importCount(); i++) {
            Import im = module.importSection().getImport(i);
            Value v = resolved.getArrayElement(i);
            switch (im.importType()) {
                case FUNCTION -> values.addFunction(function((FunctionImport) im, v));
                case MEMORY -> {
                    LinearMemory mem = v.asHostObject();
                    MemoryImport mi = (MemoryImport) im;
                    if (mem.pages() < mi.limits().initialPages() || mem.maximumPages() > mi.limits().maximumPages()) {
                        return new WasmFailure("LinkError", "WebAssembly.Instance(): Import #" + i + " \"" + im.module() + "\" \""
                                + im.name() + "\": memory import has a size or maximum the module does not accept");
                    }
                    values.addMemory(new ImportMemory(im.module(), im.name(), mem));
                }
                case TABLE -> values.addTable(new ImportTable(im.module(), im.name(), v.<WasmTable>asHostObject().table));
                case GLOBAL -> {
                    GlobalImport g = (GlobalImport) im;
                    GlobalInstance gi = v.isHostObject() ? v.<WasmGlobal>asHostObject().global
                            : new GlobalInstance(WasmTypes.toRaw(g.type(), v), 0, g.type(), MutabilityType.Const);
                    values.addGlobal(new ImportGlobal(im.module(), im.name(), gi));
                }
                case TAG -> {
                    return new WasmFailure("LinkError", "WebAssembly.Instance(): Import #" + i + " \"" + im.module() + "\" \""
                            + im.name() + "\": tag imports (exception handling) are not supported by cellgate");
                }
            }
        }
        WasmCalls.enter();
        try {
            Instance instance = Instance.builder(module).withImportValues(values.build()).withMachineFactory(machines)
                    .withMemoryFactory(LinearMemory::new).build();
            return new WasmInstanceHandle(instance);
        } catch (PolyglotException e) {
            throw e; // a JavaScript exception from an import the start function called
        } catch (RuntimeException | StackOverflowError e) {
            return e instanceof RuntimeException re ? WasmFailure.ofInstantiate(re) : WasmFailure.ofRun(e);
        } finally {
            WasmCalls.exit();
        }
    }

    private ImportFunction function(FunctionImport im, Value fn) {
        FunctionType type = module.typeSection().getType(im.typeIndex());
        if (fn.isHostObject() && fn.asHostObject() instanceof WasmFunction w) {
            // Wasm to Wasm: called directly, no JavaScript in between.
            return new HostFunction(im.module(), im.name(), type, (inst, args) -> w.instance.getMachine().call(w.index, args));
        }
        List<ValType> params = type.params();
        List<ValType> results = type.returns();
        return new HostFunction(im.module(), im.name(), type, (inst, args) -> {
            Object[] js = new Object[args.length];
            for (int i = 0; i < js.length; i++) {
                js[i] = WasmTypes.fromRaw(params.get(i), args[i]);
            }
            Value r = fn.execute(js);
            long[] out = new long[results.size()];
            if (results.size() == 1) {
                out[0] = WasmTypes.toRaw(results.get(0), r);
            } else {
                for (int i = 0; i < out.length; i++) {
                    out[i] = WasmTypes.toRaw(results.get(i), r.getArrayElement(i));
                }
            }
            return out;
        });
    }
}
