package dev.cellgate.js.graal.host;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/** A paused Vert.x read stream (an HTTP response body) as a one-subscriber publisher with demand-driven fetches. */
final class ReadStreamPublisher implements Flow.Publisher<ByteBuffer> {
    private final ReadStream<Buffer> stream;
    private final Runnable onCancel;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    /** {@code stream} must already be paused, so no data is lost before a subscriber asks for it. */
    ReadStreamPublisher(ReadStream<Buffer> stream, Runnable onCancel) {
        this.stream = stream;
        this.onCancel = onCancel;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
        if (!subscribed.compareAndSet(false, true)) {
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            s.onError(new IllegalStateException("a response body can be read only once"));
            return;
        }
        AtomicBoolean finished = new AtomicBoolean();
        stream.handler(buf -> s.onNext(ByteBuffer.wrap(buf.getBytes())));
        stream.endHandler(v -> {
            if (finished.compareAndSet(false, true)) {
                s.onComplete();
            }
        });
        stream.exceptionHandler(e -> {
            if (finished.compareAndSet(false, true)) {
                s.onError(e);
            }
        });
        s.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                stream.fetch(n);
            }

            @Override
            public void cancel() {
                if (finished.compareAndSet(false, true)) {
                    onCancel.run();
                }
            }
        });
    }
}
