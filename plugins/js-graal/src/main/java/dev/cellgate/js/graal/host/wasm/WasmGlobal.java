package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.GlobalInstance;
import com.dylibso.chicory.wasm.types.MutabilityType;
import com.dylibso.chicory.wasm.types.ValType;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/** A {@code WebAssembly.Global}: an exported global, or one JavaScript made to import. */
public final class WasmGlobal {
    final GlobalInstance global;

    WasmGlobal(GlobalInstance global) {
        this.global = global;
    }

    /** {@code new WebAssembly.Global({value, mutable}, v)} with v already coerced by wasm.js. */
    static WasmGlobal create(String type, boolean mutable, Value initial) {
        ValType t = WasmTypes.byName(type);
        return new WasmGlobal(new GlobalInstance(WasmTypes.toRaw(t, initial), 0, t, mutable ? MutabilityType.Var : MutabilityType.Const));
    }

    @HostAccess.Export
    public String type() {
        return WasmTypes.name(global.getType());
    }

    @HostAccess.Export
    public boolean mutable() {
        return global.getMutabilityType() == MutabilityType.Var;
    }

    @HostAccess.Export
    public Object get() {
        return WasmTypes.fromRaw(global.getType(), global.getValue());
    }

    @HostAccess.Export
    public void set(Value v) {
        global.setValue(WasmTypes.toRaw(global.getType(), v));
    }
}
