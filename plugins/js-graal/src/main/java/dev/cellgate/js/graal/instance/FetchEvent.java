package dev.cellgate.js.graal.instance;

import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.js.graal.host.BodyArgs;
import dev.cellgate.js.graal.host.HeaderLines;
import dev.cellgate.js.graal.host.JsFunctions;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * A {@code fetch} event. JavaScript answers through {@link #respond} or {@code fail}, and brackets
 * each {@code ctx.waitUntil} promise with {@code waitUntilBegin}/{@code waitUntilEnd}; the
 * instance counts the event in flight until the handler answered and every such promise settled.
 */
public final class FetchEvent extends AnsweredEvent<HttpResponseData> {
    private final Supplier<JsFunctions> functions;

    public FetchEvent(JsInstance instance, Supplier<JsFunctions> functions, String requestId, String label) {
        super(instance, requestId, label);
        this.functions = functions;
    }

    @HostAccess.Export
    public void respond(int status, String statusText, String headerLines, int bodyKind, Value body, int offset, int length) {
        if (answered()) {
            return;
        }
        if (instance.brokenBy() != null) {
            fail(instance.brokenBy()); // the body is not even read: the object broke this turn
            return;
        }
        answer(bodyKind == BodyArgs.WEBSOCKET
                ? new HttpResponseData(status, statusText, HeaderLines.decode(headerLines), dev.cellgate.core.spi.js.Body.EMPTY,
                        body.as(dev.cellgate.js.graal.host.SocketHandle.class).end())
                : new HttpResponseData(status, statusText, HeaderLines.decode(headerLines),
                        BodyArgs.fromJs(instance, this, functions.get(), bodyKind, body, offset, length)));
    }
}
