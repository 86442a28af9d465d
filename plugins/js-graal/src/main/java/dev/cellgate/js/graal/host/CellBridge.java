package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import io.vertx.core.Vertx;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * What a Durable Object's {@code ctx} ({@code durable-object-state.js}) asks of Java: hold and
 * release the instance's input gate for {@code blockConcurrencyWhile} and
 * {@code storage.transaction}, break the object when {@code blockConcurrencyWhile} fails or holds
 * the gate too long, and count {@code ctx.waitUntil} promises as work in flight. Called only
 * inside turns, on the cell's executor.
 */
public final class CellBridge {
    static final String TIMEOUT_MESSAGE = "A call to blockConcurrencyWhile() in a Durable Object waited for too long. "
            + "The call was canceled and the Durable Object was reset.";

    private final JsInstance instance;
    private final Vertx vertx;
    private final long timeoutMs;
    private final boolean enforced;
    private long timer = -1;

    /** @param enforced false only for the negative control of the gate tests: holds then do nothing */
    public CellBridge(JsInstance instance, Vertx vertx, long timeoutMs, boolean enforced) {
        this.instance = instance;
        this.vertx = vertx;
        this.timeoutMs = timeoutMs;
        this.enforced = enforced;
    }

    @HostAccess.Export
    public void gateHold() {
        if (!enforced) {
            return;
        }
        long generation = instance.holdGate();
        if (timer < 0) {
            timer = vertx.setTimer(timeoutMs, id -> instance.host().executor().execute(() -> expired(generation)));
        }
    }

    @HostAccess.Export
    public void gateRelease() {
        if (!enforced) {
            return;
        }
        instance.releaseGate();
        if (instance.gateGeneration() < 0) {
            cancelTimer();
        }
    }

    /** The callback of {@code blockConcurrencyWhile} failed: the object is reset (see JsInstance#breakGate). */
    @HostAccess.Export
    public void gateBreak(String name, String message, String stack) {
        cancelTimer();
        if (enforced) {
            instance.breakGate(new JsException(name, message, stack));
        }
    }

    /**
     * {@code ctx.abort(reason)}: the object breaks with that error, the host ends the cell's session,
     * and the running turn is cancelled: this call does not return to JavaScript.
     */
    @HostAccess.Export
    public void abort(String name, String message, String stack) {
        cancelTimer();
        instance.abort(new JsException(name, message, stack));
    }

    private void expired(long generation) {
        timer = -1;
        if (instance.gateGeneration() == generation) {
            instance.breakGate(new JsException("Error", TIMEOUT_MESSAGE, "Error: " + TIMEOUT_MESSAGE));
        }
    }

    private void cancelTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    /** A {@code ctx.waitUntil} promise began: its event stays in flight until {@link #waitUntilEnd}. */
    @HostAccess.Export
    public Object waitUntilBegin() {
        JsEvent event = instance.currentEvent();
        instance.hold(event);
        return event;
    }

    @HostAccess.Export
    public void waitUntilEnd(Value token) {
        instance.release(token.asHostObject());
    }

    /** Cancels the timeout (the context is being discarded). */
    public void release() {
        cancelTimer();
    }
}
