package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionException;
import org.graalvm.polyglot.Value;

/**
 * Durable Object stub calls from JavaScript through {@code InstanceHost.stubs()}. The channel's
 * futures complete on any thread; each result is posted to the instance's executor as a turn of
 * the calling event before it reaches JavaScript.
 */
final class StubCalls {
    private final JsInstance instance;

    StubCalls(JsInstance instance) {
        this.instance = instance;
    }

    /**
     * {@code callback(status, statusText, headerLines, bodyKind, body)}, or on failure
     * {@code callback(-1, message, retryable, jsName)}: {@code jsName} is the class of the error the
     * Durable Object threw (the caller rejects with that class, as workerd does), else null.
     */
    void fetch(CellIdentity target, HttpRequestData request, Value callback) {
        answerFetch(instance.currentEvent(), instance.host().stubs().fetch(target, request), callback);
    }

    /** Hands {@code response} to {@code callback} in a turn of {@code event} (see {@link #fetch}); also for service bindings. */
    void answerFetch(JsEvent event, java.util.concurrent.CompletableFuture<HttpResponseData> response, Value callback) {
        response.whenComplete((resp, error) -> {
            if (error != null) {
                postFailure(event, callback, error);
            } else {
                instance.post(event, () -> deliver(event, callback, resp));
            }
        });
    }

    private void deliver(JsEvent event, Value callback, HttpResponseData resp) {
        if (resp.webSocket() != null) {
            callback.executeVoid(resp.status(), resp.statusText(), HeaderLines.encode(resp.headers()), BodyArgs.WEBSOCKET,
                    new SocketHandle(resp.webSocket()));
            return;
        }
        Body body = resp.body();
        callback.executeVoid(resp.status(), resp.statusText(), HeaderLines.encode(resp.headers()),
                BodyArgs.kindOf(body), BodyArgs.valueOf(instance, event, body));
    }

    /** {@code callback(1, resultBuffer)} or {@code callback(-1, message, retryable, jsName)} (see {@link #fetch}). */
    void call(CellIdentity target, String method, byte[] arguments, Value callback) {
        answerCall(instance.currentEvent(), instance.host().stubs().call(target, method, arguments), callback);
    }

    /** Hands a call's result envelope to {@code callback} in a turn of {@code event} (see {@link #call}); also for service bindings. */
    void answerCall(JsEvent event, java.util.concurrent.CompletableFuture<byte[]> result, Value callback) {
        result.whenComplete((bytes, error) -> {
            if (error != null) {
                postFailure(event, callback, error);
            } else {
                instance.post(event, () -> callback.executeVoid(1, ByteBuffer.wrap(bytes)));
            }
        });
    }

    private void postFailure(JsEvent event, Value callback, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        boolean retryable = cause instanceof StubCallException s && s.retryable();
        String jsName = cause instanceof JsException js ? js.jsName() : null;
        String message = cause instanceof JsException js ? js.jsMessage()
                : cause.getMessage() == null ? cause.toString() : cause.getMessage();
        instance.post(event, () -> callback.executeVoid(-1, message, retryable, jsName));
    }
}
