package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.TableInstance;
import com.dylibso.chicory.wasm.types.Table;
import com.dylibso.chicory.wasm.types.TableLimits;
import com.dylibso.chicory.wasm.types.ValType;
import com.dylibso.chicory.wasm.types.Value;
import org.graalvm.polyglot.HostAccess;

/** A {@code WebAssembly.Table} of functions (funcref); externref tables are refused by wasm.js. */
public final class WasmTable {
    final TableInstance table;

    WasmTable(TableInstance table) {
        this.table = table;
    }

    static WasmTable create(int initial, int maximum) {
        TableLimits limits = maximum < 0 ? new TableLimits(initial) : new TableLimits(initial, maximum);
        return new WasmTable(new TableInstance(new Table(ValType.FuncRef, limits), Value.REF_NULL_VALUE));
    }

    @HostAccess.Export
    public String element() {
        return WasmTypes.name(table.elementType());
    }

    @HostAccess.Export
    public int length() {
        return table.size();
    }

    /** The function at {@code i}, null for a null reference; a WasmFailure out of range. */
    @HostAccess.Export
    public Object get(int i) {
        if (i < 0 || i >= table.size()) {
            return new WasmFailure("RangeError", "WebAssembly.Table.get(): invalid address " + i + " in funcref table of size "
                    + table.size());
        }
        int ref = table.ref(i);
        Instance owner = table.instance(i);
        return ref == Value.REF_NULL_VALUE || owner == null ? null : new WasmFunction(owner, ref);
    }

    @HostAccess.Export
    public Object set(int i, WasmFunction f) {
        if (i < 0 || i >= table.size()) {
            return new WasmFailure("RangeError", "WebAssembly.Table.set(): invalid address " + i + " in funcref table of size "
                    + table.size());
        }
        if (f == null) {
            table.setRef(i, Value.REF_NULL_VALUE, null);
        } else {
            table.setRef(i, f.index, f.instance);
        }
        return null;
    }

    /** The old length, or -1 when it cannot grow. */
    @HostAccess.Export
    public int grow(int delta, WasmFunction init) {
        return init == null ? table.grow(delta, Value.REF_NULL_VALUE, null) : table.grow(delta, init.index, init.instance);
    }
}
