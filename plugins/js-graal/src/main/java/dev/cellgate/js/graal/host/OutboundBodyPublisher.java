package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * A JavaScript {@code ReadableStream} body leaving the instance (a streamed response, an
 * outbound request body) as a {@code Flow.Publisher}: a chunk is read from the JS reader only
 * while the subscriber has demand, one read at a time, on the instance's executor.
 */
public final class OutboundBodyPublisher implements Flow.Publisher<ByteBuffer> {
    private final JsInstance instance;
    private final JsEvent event;
    private final Value pumpOne;
    private final Value reader;
    private final AtomicBoolean subscribedOnce = new AtomicBoolean();
    private final AtomicLong demand = new AtomicLong();
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile boolean done;
    private volatile Flow.Subscriber<? super ByteBuffer> subscriber;

    public OutboundBodyPublisher(JsInstance instance, JsEvent event, Value pumpOne, Value reader) {
        this.instance = instance;
        this.event = event;
        this.pumpOne = pumpOne;
        this.reader = reader;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
        if (!subscribedOnce.compareAndSet(false, true)) {
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            s.onError(new IllegalStateException("a streamed body can be read only once"));
            return;
        }
        subscriber = s;
        s.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                if (n <= 0) {
                    finish(new IllegalArgumentException("Flow.Subscription.request(" + n + "): demand must be positive"));
                    return;
                }
                demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
                readIfWanted();
            }

            @Override
            public void cancel() {
                if (!done) {
                    done = true;
                    instance.post(event, () -> reader.invokeMember("cancel"));
                }
            }
        });
    }

    private void readIfWanted() {
        if (!done && demand.get() > 0 && reading.compareAndSet(false, true)) {
            instance.post(event, () -> pumpOne.executeVoid(reader, new Sink()));
        }
    }

    private void finish(Throwable error) {
        if (done) {
            return;
        }
        done = true;
        if (error == null) {
            subscriber.onComplete();
        } else {
            subscriber.onError(error);
        }
    }

    /** What {@code pumpOne} reports back, once per read. */
    public final class Sink {
        @HostAccess.Export
        public void chunk(Value buffer, int offset, int length) {
            byte[] b = new byte[length];
            buffer.readBuffer(offset, b, 0, length);
            instance.afterTurn(() -> {
                demand.decrementAndGet();
                reading.set(false);
                if (!done) {
                    subscriber.onNext(ByteBuffer.wrap(b));
                }
                readIfWanted();
            });
        }

        @HostAccess.Export
        public void end() {
            instance.afterTurn(() -> finish(null));
        }

        @HostAccess.Export
        public void error(String name, String message, String stack) {
            instance.afterTurn(() -> finish(new JsException(name, message, stack)));
        }
    }
}
