package dev.cellgate.js.graal.instance;

import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.js.graal.host.BodyArgs;
import dev.cellgate.js.graal.host.HeaderLines;
import dev.cellgate.js.graal.host.JsFunctions;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * A {@code fetch} event. JavaScript answers through {@link #respond} or {@link #fail}, and brackets
 * each {@code ctx.waitUntil} promise with {@link #waitUntilBegin}/{@link #waitUntilEnd}; the
 * instance counts the event in flight until the handler answered and every such promise settled.
 */
public final class FetchEvent extends JsEvent {
    private final JsInstance instance;
    private final Supplier<JsFunctions> functions;
    private final CompletableFuture<HttpResponseData> future = new CompletableFuture<>();
    private boolean answered;

    public FetchEvent(JsInstance instance, Supplier<JsFunctions> functions, String requestId, String label) {
        super(requestId, label);
        this.instance = instance;
        this.functions = functions;
        instance.hold(this);
    }

    public CompletableFuture<HttpResponseData> future() {
        return future;
    }

    @HostAccess.Export
    public void respond(int status, String statusText, String headerLines, int bodyKind, Value body, int offset, int length) {
        if (answered) {
            return;
        }
        if (instance.brokenBy() != null) {
            fail(instance.brokenBy()); // a failed blockConcurrencyWhile broke the object this turn
            return;
        }
        answered = true;
        HttpResponseData response = bodyKind == BodyArgs.WEBSOCKET
                ? new HttpResponseData(status, statusText, HeaderLines.decode(headerLines), dev.cellgate.core.spi.js.Body.EMPTY,
                        body.as(dev.cellgate.js.graal.host.SocketHandle.class).end())
                : new HttpResponseData(status, statusText, HeaderLines.decode(headerLines),
                BodyArgs.fromJs(instance, this, functions.get(), bodyKind, body, offset, length));
        instance.afterTurn(() -> future.complete(response));
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
}
