package dev.cellgate.js.graal.instance;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * An event whose answer is bytes or nothing: an RPC call (the structured-clone result envelope),
 * an alarm, or a cell's construction. JavaScript answers with {@link #result}, {@link #done} or
 * {@link #fail}.
 */
public final class ResultEvent extends JsEvent {
    private final JsInstance instance;
    private final CompletableFuture<byte[]> future = new CompletableFuture<>();
    private boolean answered;

    public ResultEvent(JsInstance instance, String requestId, String label) {
        super(requestId, label);
        this.instance = instance;
        instance.hold(this);
    }

    public CompletableFuture<byte[]> future() {
        return future;
    }

    @HostAccess.Export
    public void result(Value buffer, int offset, int length) {
        byte[] b = new byte[length];
        buffer.readBuffer(offset, b, 0, length);
        answer(b);
    }

    @HostAccess.Export
    public void done() {
        answer(new byte[0]);
    }

    private void answer(byte[] b) {
        if (answered) {
            return;
        }
        if (instance.brokenBy() != null) {
            fail(instance.brokenBy()); // a failed blockConcurrencyWhile broke the object this turn
            return;
        }
        answered = true;
        instance.afterTurn(() -> future.complete(b));
        instance.release(this);
    }

    @HostAccess.Export
    public void fail(String name, String message, String stack) {
        fail(new JsException(name, message, stack));
    }

    @HostAccess.Export
    public void waitUntilBegin() {
        instance.hold(this);
    }

    @HostAccess.Export
    public void waitUntilEnd() {
        instance.release(this);
    }

    @Override
    public void fail(Throwable error) {
        if (answered) {
            return;
        }
        answered = true;
        instance.afterTurn(() -> future.completeExceptionally(error));
        instance.release(this);
    }

    static ByteBuffer wrap(byte[] b) {
        return ByteBuffer.wrap(b);
    }
}
