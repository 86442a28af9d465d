package dev.cellgate.js.graal.host.wasm;

import com.dylibso.chicory.runtime.ChicoryInterruptedException;
import com.dylibso.chicory.wasm.ChicoryException;
import com.dylibso.chicory.wasm.InvalidException;
import com.dylibso.chicory.wasm.MalformedException;
import com.dylibso.chicory.wasm.UninstantiableException;
import com.dylibso.chicory.wasm.UnlinkableException;
import java.util.Locale;
import org.graalvm.polyglot.HostAccess;

/**
 * A failure of the WebAssembly host, as the JavaScript error wasm.js throws: its class
 * ({@code CompileError}, {@code LinkError}, {@code RuntimeError}, {@code RangeError}) and V8's
 * message where V8 has one (workerd runs V8). Chicory's trap messages are the spec tests' names.
 */
public record WasmFailure(String errorClass, String message) {

    @HostAccess.Export
    public String errorClass() {
        return errorClass;
    }

    @HostAccess.Export
    public String message() {
        return message;
    }

    @HostAccess.Export
    public boolean failed() {
        return true;
    }

    /** A failure while running Wasm code (a trap, or the stack running out). */
    static WasmFailure ofRun(Throwable e) {
        if (e instanceof StackOverflowError) {
            return new WasmFailure("RangeError", "Maximum call stack size exceeded");
        }
        if (e instanceof ChicoryInterruptedException) {
            return new WasmFailure("Error", "the WebAssembly call was interrupted (CPU budget)");
        }
        if (e instanceof UnlinkableException) {
            return new WasmFailure("LinkError", e.getMessage());
        }
        String m = trapMessage(e.getMessage());
        // V8 reports Wasm recursion that exhausts the stack as a RangeError, like JavaScript's.
        return new WasmFailure(m != null && m.startsWith("Maximum call stack") ? "RangeError" : "RuntimeError", m);
    }

    /** A module that does not parse or validate. */
    static WasmFailure ofCompile(ChicoryException e) {
        return new WasmFailure("CompileError", e.getMessage());
    }

    static WasmFailure ofInstantiate(RuntimeException e) {
        if (e instanceof UnlinkableException || e instanceof UninstantiableException && !isTrap(e.getMessage())) {
            return new WasmFailure("LinkError", "WebAssembly.Instance(): " + e.getMessage());
        }
        if (e instanceof MalformedException || e instanceof InvalidException) {
            return new WasmFailure("CompileError", e.getMessage());
        }
        return ofRun(e);
    }

    private static boolean isTrap(String m) {
        return m != null && (m.contains("out of bounds") || m.contains("unreachable"));
    }

    /** V8's trap messages for Chicory's (wasm spec test) ones. */
    static String trapMessage(String chicory) {
        String m = chicory == null ? "" : chicory.toLowerCase(Locale.ROOT);
        if (m.contains("unreachable")) {
            return "unreachable";
        } else if (m.contains("out of bounds memory access")) {
            return "memory access out of bounds";
        } else if (m.contains("integer divide by zero")) {
            return "divide by zero";
        } else if (m.contains("integer overflow")) {
            return "divide result unrepresentable";
        } else if (m.contains("invalid conversion to integer")) {
            return "float unrepresentable in integer range";
        } else if (m.contains("undefined element") || m.contains("out of bounds table access")) {
            return "table index is out of bounds";
        } else if (m.contains("indirect call type mismatch") || m.contains("uninitialized element")) {
            return "null function or function signature mismatch";
        } else if (m.contains("call stack exhausted")) {
            return "Maximum call stack size exceeded";
        }
        return chicory;
    }
}
