package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.wasm.types.ValType;
import java.util.List;
import org.graalvm.polyglot.Value;

/** Value conversions between JavaScript (already coerced by wasm.js) and Chicory's raw {@code long}s. */
final class WasmTypes {
    private WasmTypes() {
    }

    /** The JS API name of a value type ({@code i32}, {@code externref}…). */
    static String name(ValType t) {
        if (t.equals(ValType.I32)) {
            return "i32";
        } else if (t.equals(ValType.I64)) {
            return "i64";
        } else if (t.equals(ValType.F32)) {
            return "f32";
        } else if (t.equals(ValType.F64)) {
            return "f64";
        } else if (t.equals(ValType.V128)) {
            return "v128";
        } else if (t.equals(ValType.FuncRef)) {
            return "anyfunc";
        } else if (t.equals(ValType.ExternRef)) {
            return "externref";
        }
        return "unknown";
    }

    static ValType byName(String name) {
        return switch (name) {
            case "i32" -> ValType.I32;
            case "i64" -> ValType.I64;
            case "f32" -> ValType.F32;
            case "f64" -> ValType.F64;
            case "anyfunc", "funcref" -> ValType.FuncRef;
            case "externref" -> ValType.ExternRef;
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Whether every type crosses to JavaScript as a number or BigInt (references and v128 do not, here). */
    static boolean numeric(List<ValType> types) {
        for (ValType t : types) {
            if (!t.isNumeric() || t.equals(ValType.V128)) {
                return false;
            }
        }
        return true;
    }

    /** A coerced JS value (number, or BigInt for i64) as Chicory's raw long. */
    static long toRaw(ValType t, Value v) {
        if (t.equals(ValType.I32)) {
            return v.asInt();
        } else if (t.equals(ValType.I64)) {
            return v.asLong();
        } else if (t.equals(ValType.F32)) {
            return Float.floatToRawIntBits((float) v.asDouble()) & 0xFFFFFFFFL;
        }
        return Double.doubleToRawLongBits(v.asDouble());
    }

    /** A raw long as what JavaScript receives: int, double, or (i64) a decimal string wasm.js makes a BigInt. */
    static Object fromRaw(ValType t, long raw) {
        if (t.equals(ValType.I32)) {
            return (int) raw;
        } else if (t.equals(ValType.I64)) {
            return Long.toString(raw);
        } else if (t.equals(ValType.F32)) {
            return (double) Float.intBitsToFloat((int) raw);
        }
        return Double.longBitsToDouble(raw);
    }

    static String signature(List<ValType> types) {
        StringBuilder b = new StringBuilder();
        for (ValType t : types) {
            b.append(b.length() == 0 ? "" : ",").append(name(t));
        }
        return b.toString();
    }
}
