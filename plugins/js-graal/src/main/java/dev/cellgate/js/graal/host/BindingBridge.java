package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * The engine's half of the binding seam, for {@code dispatch.js} and the binding wrappers
 * ({@code cellgate/bindings/<type>.js}): opens each binding of the deployment in this instance,
 * hands out the wrapper of a type, turns a host object's {@code CompletionStage} into a callback
 * on the instance's executor (a turn of the calling event, as for stub calls), and carries bytes
 * from JavaScript to host objects. It knows no binding type.
 */
public final class BindingBridge {
    /** What the instance's bindings are: open one, name its wrapper. Implemented by the bundle side. */
    public interface Source {
        int size();

        Object open(int index);

        /** The wrapper function of {@code type} ({@code (host, internal) => (target, settings, name) => value}), or null. */
        Value wrapper(String type);
    }

    private final JsInstance instance;
    private final Source source;

    public BindingBridge(JsInstance instance, Source source) {
        this.instance = instance;
        this.source = source;
    }

    @HostAccess.Export
    public int size() {
        return source.size();
    }

    /** The host object (or plain value) behind the deployment's binding {@code index}. */
    @HostAccess.Export
    public Object open(int index) {
        return source.open(index);
    }

    @HostAccess.Export
    public Value wrapper(String type) {
        return source.wrapper(type);
    }

    /**
     * Calls {@code callback(true, value)} or {@code callback(false, jsName, message)} on the
     * instance's executor once {@code stage} (a host object's result) completes. A value that is a
     * {@link ByteBuffer} reaches JavaScript as one ({@code new ArrayBuffer(value)} copies nothing).
     */
    @HostAccess.Export
    public void await(Object stage, Value callback) {
        if (!(stage instanceof CompletionStage<?> cs)) {
            throw new IllegalArgumentException("a binding's host method returned " + stage + ", not a CompletionStage");
        }
        JsEvent event = instance.currentEvent();
        cs.whenComplete((value, error) -> {
            if (error == null) {
                instance.post(event, () -> callback.executeVoid(true, value));
                return;
            }
            Throwable c = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String jsName = c instanceof BindingCallException b ? b.jsName() : "Error";
            String message = c.getMessage() == null ? c.toString() : c.getMessage();
            instance.post(event, () -> callback.executeVoid(false, jsName, message));
        });
    }

    /** Copies {@code length} bytes of a JavaScript buffer into a Java array a host method can take as {@code byte[]}. */
    @HostAccess.Export
    public byte[] bytes(Value buffer, int offset, int length) {
        return HostBridge.bytes(buffer, offset, length);
    }
}
