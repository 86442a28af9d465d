package dev.cellgate.gateway.http.body;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Vert.x read stream (a request body) as a {@link Flow.Publisher} with back-pressure: the
 * stream stays paused and is fetched exactly as far as the subscriber asks. Bodies larger than
 * {@code maxBytes} fail with {@link BodyTooLargeException}.
 */
public final class ReadStreamPublisher implements Flow.Publisher<ByteBuffer> {
    private final ReadStream<Buffer> stream;
    private final long maxBytes;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicBoolean tooLarge;

    /** The stream must already be paused (pause it before any asynchronous step). */
    public ReadStreamPublisher(ReadStream<Buffer> stream, long maxBytes) {
        this(stream, maxBytes, new AtomicBoolean());
    }

    /** @param tooLarge set when the body went past {@code maxBytes}, so the HTTP layer answers 413 whatever the Worker did */
    public ReadStreamPublisher(ReadStream<Buffer> stream, long maxBytes, AtomicBoolean tooLarge) {
        this.stream = stream;
        this.maxBytes = maxBytes;
        this.tooLarge = tooLarge;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
        if (!subscribed.compareAndSet(false, true)) {
            s.onSubscribe(new Flow.Subscription() {
                public void request(long n) {
                }

                public void cancel() {
                }
            });
            s.onError(new IllegalStateException("a request body can be read only once"));
            return;
        }
        long[] seen = {0};
        boolean[] done = {false};
        stream.handler(buf -> {
            if (done[0]) {
                return;
            }
            seen[0] += buf.length();
            if (seen[0] > maxBytes) {
                done[0] = true;
                tooLarge.set(true);
                stream.pause();
                s.onError(new BodyTooLargeException(maxBytes));
                return;
            }
            s.onNext(ByteBuffer.wrap(buf.getBytes()));
        });
        stream.exceptionHandler(e -> {
            if (!done[0]) {
                done[0] = true;
                s.onError(e);
            }
        });
        stream.endHandler(v -> {
            if (!done[0]) {
                done[0] = true;
                s.onComplete();
            }
        });
        s.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                if (n <= 0) {
                    done[0] = true;
                    s.onError(new IllegalArgumentException("request(" + n + ") violates reactive-streams rule 3.9"));
                    return;
                }
                stream.fetch(n);
            }

            @Override
            public void cancel() {
                done[0] = true;
                stream.handler(null);
                stream.resume(); // drain and discard what the client still sends
            }
        });
    }

    /** The body went past the node's limit. */
    public static final class BodyTooLargeException extends RuntimeException {
        public BodyTooLargeException(long max) {
            super("request body exceeds " + max + " bytes (CELLD_MAX_REQUEST_BODY_BYTES)");
        }
    }
}
