package dev.cellgate.gateway.http.body;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a streamed response body with back-pressure: one chunk at a time, waiting for the
 * connection to drain when its write queue is full. An error mid-body resets the connection
 * (a truncated body must never look complete).
 */
public final class ResponseBodySubscriber implements Flow.Subscriber<ByteBuffer> {
    private static final Logger LOG = LoggerFactory.getLogger(ResponseBodySubscriber.class);

    private final HttpServerResponse response;
    private final Context context;
    private Flow.Subscription subscription;

    public ResponseBodySubscriber(HttpServerResponse response, Context context) {
        this.response = response;
        this.context = context;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        response.closeHandler(v -> s.cancel());
        s.request(1);
    }

    @Override
    public void onNext(ByteBuffer chunk) {
        byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        context.runOnContext(v -> {
            if (response.ended() || response.closed()) {
                subscription.cancel();
                return;
            }
            response.write(Buffer.buffer(bytes));
            if (response.writeQueueFull()) {
                response.drainHandler(d -> subscription.request(1));
            } else {
                subscription.request(1);
            }
        });
    }

    @Override
    public void onError(Throwable t) {
        context.runOnContext(v -> {
            LOG.atWarn().setMessage("response.stream_failed").addKeyValue("error", String.valueOf(t.getMessage())).log();
            if (!response.ended()) {
                response.reset();
            }
        });
    }

    @Override
    public void onComplete() {
        context.runOnContext(v -> {
            if (!response.ended()) {
                response.end();
            }
        });
    }
}
