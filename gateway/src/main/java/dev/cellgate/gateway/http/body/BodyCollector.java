package dev.cellgate.gateway.http.body;

import dev.cellgate.core.spi.js.Body;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** Reads a whole body into memory (bounded), e.g. to sign it before forwarding to a peer. */
public final class BodyCollector {
    private BodyCollector() {
    }

    public static CompletableFuture<byte[]> collect(Body body, long maxBytes) {
        return switch (body) {
            case Body.Empty e -> CompletableFuture.completedFuture(new byte[0]);
            case Body.Bytes b -> CompletableFuture.completedFuture(b.data());
            case Body.Stream s -> {
                CompletableFuture<byte[]> out = new CompletableFuture<>();
                s.publisher().subscribe(new Flow.Subscriber<>() {
                    final ByteArrayOutputStream buf = new ByteArrayOutputStream();
                    Flow.Subscription sub;

                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        sub = subscription;
                        sub.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        byte[] b = new byte[item.remaining()];
                        item.get(b);
                        if (buf.size() + (long) b.length > maxBytes) {
                            sub.cancel();
                            out.completeExceptionally(new ReadStreamPublisher.BodyTooLargeException(maxBytes));
                            return;
                        }
                        buf.writeBytes(b);
                    }

                    @Override
                    public void onError(Throwable t) {
                        out.completeExceptionally(t);
                    }

                    @Override
                    public void onComplete() {
                        out.complete(buf.toByteArray());
                    }
                });
                yield out;
            }
        };
    }
}
