package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.graalvm.polyglot.Value;

/**
 * Point-in-time recovery calls of {@code ctx.storage} (SPEC §22) handed to the cell's host. Each
 * answer reaches JavaScript as a turn of the calling event: {@code callback(true, bookmark)} or
 * {@code callback(false, message, isTypeError)}.
 */
final class PitrCalls {
    private final JsInstance instance;

    PitrCalls(JsInstance instance) {
        this.instance = instance;
    }

    void call(String op, String arg, Value callback) {
        JsEvent event = instance.currentEvent();
        CompletableFuture<String> answer;
        if (!(instance.host() instanceof CellHost host)) {
            answer = CompletableFuture.failedFuture(new UnsupportedOperationException(
                    "storage point-in-time recovery is only available to Durable Objects"));
        } else {
            answer = switch (op) {
                case "current" -> host.currentBookmark();
                case "forTime" -> host.bookmarkForTime(Long.parseLong(arg));
                case "restore" -> host.restoreOnNextSession(arg);
                default -> CompletableFuture.failedFuture(new IllegalArgumentException("unknown point-in-time operation " + op));
            };
        }
        answer.whenComplete((bookmark, error) -> instance.post(event, () -> {
            if (error == null) {
                callback.executeVoid(true, bookmark);
                return;
            }
            Throwable c = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            callback.executeVoid(false, c.getMessage() == null ? c.toString() : c.getMessage(), c instanceof IllegalArgumentException);
        }));
    }
}
