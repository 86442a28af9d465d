package dev.cellgate.js.graal.instance;

import java.util.concurrent.CompletableFuture;
import org.graalvm.polyglot.HostAccess;

/**
 * An event JavaScript answers once, with a value of type {@code T} or an error. The answer is
 * handed over after the turn (so the output gate sees the turn's writes first), and the event
 * stays in flight while its {@code waitUntil} promises, bracketed by
 * {@link #waitUntilBegin}/{@link #waitUntilEnd}, are unsettled.
 */
public abstract class AnsweredEvent<T> extends JsEvent {
    protected final JsInstance instance;
    private final CompletableFuture<T> future = new CompletableFuture<>();
    private boolean answered;

    protected AnsweredEvent(JsInstance instance, String requestId, String label) {
        super(requestId, label);
        this.instance = instance;
        instance.hold(this);
    }

    public CompletableFuture<T> future() {
        return future;
    }

    /** Settles with {@code value}, unless a failed blockConcurrencyWhile broke the object this turn. */
    protected final void answer(T value) {
        if (answered) {
            return;
        }
        if (instance.brokenBy() != null) {
            fail(instance.brokenBy());
            return;
        }
        answered = true;
        instance.afterTurn(() -> settle(value, null));
        instance.release(this);
    }

    /** Whether the event was settled already (later answers are ignored). */
    protected final boolean answered() {
        return answered;
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
    public final void fail(Throwable error) {
        if (answered) {
            return;
        }
        answered = true;
        instance.afterTurn(() -> settle(null, error));
        instance.release(this);
    }

    /**
     * Hands the answer over after the turn, unless the watchdog stopped the turn meanwhile: then
     * the exceeded limit is the outcome, as on workerd, where a stopped handler's answer (or the
     * error JavaScript caught from an interrupted Wasm call) never leaves the isolate.
     */
    private void settle(T value, Throwable error) {
        LimitExceededException limit = killedBy();
        if (limit != null) {
            future.completeExceptionally(limit);
        } else if (error != null) {
            future.completeExceptionally(error);
        } else {
            future.complete(value);
        }
    }
}
