package dev.cellgate.core.worker;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpResponseData;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response whose body may still be flowing out of the instance that produced it (a stream
 * the JavaScript code feeds, or a peer's answer passed through it). The instance must outlive
 * that flow, so this tells when the body is over: completed, failed, or cancelled by the
 * reader. Bodies already in memory are over at once.
 */
final class StreamedBodyEnd {
    private StreamedBodyEnd() {
    }

    /** {@code response} with {@code onEnd} run once when its body is over. */
    static HttpResponseData watch(HttpResponseData response, Runnable onEnd) {
        if (!(response.body() instanceof Body.Stream s)) {
            onEnd.run();
            return response;
        }
        AtomicBoolean ended = new AtomicBoolean();
        Runnable once = () -> {
            if (ended.compareAndSet(false, true)) {
                onEnd.run();
            }
        };
        Flow.Publisher<ByteBuffer> watched = subscriber -> s.publisher().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {
                        subscription.request(n);
                    }

                    @Override
                    public void cancel() {
                        subscription.cancel();
                        once.run();
                    }
                });
            }

            @Override
            public void onNext(ByteBuffer item) {
                subscriber.onNext(item);
            }

            @Override
            public void onError(Throwable t) {
                try {
                    subscriber.onError(t);
                } finally {
                    once.run();
                }
            }

            @Override
            public void onComplete() {
                try {
                    subscriber.onComplete();
                } finally {
                    once.run();
                }
            }
        });
        return new HttpResponseData(response.status(), response.statusText(), response.headers(), new Body.Stream(watched, s.length()),
                response.webSocket());
    }
}
