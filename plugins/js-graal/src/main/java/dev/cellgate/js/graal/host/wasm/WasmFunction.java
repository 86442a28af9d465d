package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.ValType;
import java.util.List;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;

/**
 * One Wasm function as JavaScript calls it (an export, or a table element): {@code wasm.js} coerces
 * the arguments by {@link #params()} and calls {@link #invoke}; a trap answers a {@link WasmFailure}.
 * A JavaScript exception thrown by an imported function passes through unchanged.
 */
public final class WasmFunction {
    final Instance instance;
    final int index;
    final FunctionType type;

    WasmFunction(Instance instance, int index) {
        this.instance = instance;
        this.index = index;
        this.type = instance.type(instance.functionType(index));
    }

    /** The parameter types, comma-separated ({@code i32,i64}); wasm.js coerces by them. */
    @HostAccess.Export
    public String params() {
        return WasmTypes.signature(type.params());
    }

    @HostAccess.Export
    public String results() {
        return WasmTypes.signature(type.returns());
    }

    /** V8 names an exported function by its index in the module's function space. */
    @HostAccess.Export
    public int index() {
        return index;
    }

    /** Whether JavaScript may call it: references and v128 do not cross to JavaScript here. */
    @HostAccess.Export
    public boolean callable() {
        return WasmTypes.numeric(type.params()) && WasmTypes.numeric(type.returns());
    }

    /** Calls with coerced arguments; answers null (no result), a value, an Object[] (several) or a WasmFailure. */
    @HostAccess.Export
    public Object invoke(Value... args) {
        List<ValType> params = type.params();
        long[] raw = new long[params.size()];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = WasmTypes.toRaw(params.get(i), args[i]);
        }
        long[] out;
        WasmCalls.enter();
        try {
            out = instance.getMachine().call(index, raw);
        } catch (PolyglotException e) {
            throw e; // a JavaScript exception from an import: it continues in JavaScript as it was
        } catch (RuntimeException | StackOverflowError e) {
            return WasmFailure.ofRun(e);
        } finally {
            WasmCalls.exit();
        }
        return results(type.returns(), out);
    }

    static Object results(List<ValType> types, long[] out) {
        if (types.isEmpty()) {
            return null;
        }
        if (types.size() == 1) {
            return WasmTypes.fromRaw(types.get(0), out[0]);
        }
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = WasmTypes.fromRaw(types.get(i), out[i]);
        }
        return org.graalvm.polyglot.proxy.ProxyArray.fromArray(values);
    }
}
