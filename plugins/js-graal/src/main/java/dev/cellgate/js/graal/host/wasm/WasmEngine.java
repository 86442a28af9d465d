package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.InterpreterMachine;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.ChicoryException;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import dev.cellgate.core.spi.js.ScriptLoadException;
import java.util.function.Function;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * The JVM WebAssembly runtime behind {@code WebAssembly}: Chicory (pure Java; GraalWasm is not
 * available to this build). Modules compile to JVM bytecode with Chicory's compiler
 * ({@link Mode#COMPILER}, the default: bench/RESULTS.md, "WebAssembly") or run on its
 * interpreter. As on workerd, code is compiled only from a deployment's CompiledWasm modules,
 * never from bytes at run time; {@link #validate} only checks bytes.
 */
public final class WasmEngine {
    /** How Wasm code runs. */
    public enum Mode { COMPILER, INTERPRETER }

    private final Mode mode;

    public WasmEngine(Mode mode) {
        this.mode = mode;
    }

    public Mode mode() {
        return mode;
    }

    /** Parses, validates and (in compiler mode) compiles a CompiledWasm module of a deployment. */
    public WasmModuleHandle compile(String modulePath, byte[] bytes) throws ScriptLoadException {
        WasmModule module;
        try {
            module = Parser.parse(bytes);
        } catch (ChicoryException e) {
            throw new ScriptLoadException("module " + modulePath + " is not valid WebAssembly: " + e.getMessage(), e);
        }
        Function<Instance, Machine> machines;
        if (mode == Mode.COMPILER) {
            try {
                machines = MachineFactoryCompiler.compile(module);
            } catch (ChicoryException | IllegalStateException e) {
                throw new ScriptLoadException("module " + modulePath + " could not be compiled: " + e.getMessage(), e);
            }
        } else {
            machines = InterpreterMachine::new;
        }
        return new WasmModuleHandle(module, machines);
    }

    /** {@code WebAssembly.validate(bytes)}: whether the bytes are a valid module (they are not kept). */
    @HostAccess.Export
    public boolean validate(Value bytes) {
        byte[] b = new byte[(int) bytes.getBufferSize()];
        bytes.readBuffer(0, b, 0, b.length);
        try {
            Parser.parse(b);
            return true;
        } catch (ChicoryException e) {
            return false;
        }
    }

    /** {@code new WebAssembly.Memory({initial, maximum})}; maximum -1 for none. */
    @HostAccess.Export
    public LinearMemory memory(int initial, int maximum) {
        return new LinearMemory(maximum < 0 ? new com.dylibso.chicory.wasm.types.MemoryLimits(initial)
                : new com.dylibso.chicory.wasm.types.MemoryLimits(initial, maximum));
    }

    @HostAccess.Export
    public WasmTable table(int initial, int maximum) {
        return WasmTable.create(initial, maximum);
    }

    @HostAccess.Export
    public WasmGlobal global(String type, boolean mutable, Value initial) {
        return WasmGlobal.create(type, mutable, initial);
    }
}
