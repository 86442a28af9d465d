package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpResponseData;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/** Reads response bodies in tests, streams included (one chunk of demand at a time). */
public final class Responses {
    private Responses() {
    }

    public static byte[] bytes(Body body) throws Exception {
        return switch (body) {
            case Body.Empty e -> new byte[0];
            case Body.Bytes b -> b.data();
            case Body.Stream s -> drain(s.publisher()).get(30, TimeUnit.SECONDS);
        };
    }

    public static String text(HttpResponseData r) throws Exception {
        return new String(bytes(r.body()), StandardCharsets.UTF_8);
    }

    public static CompletableFuture<byte[]> drain(Flow.Publisher<ByteBuffer> publisher) {
        CompletableFuture<byte[]> out = new CompletableFuture<>();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        publisher.subscribe(new Flow.Subscriber<>() {
            private Flow.Subscription s;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                this.s = s;
                s.request(1);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] b = new byte[item.remaining()];
                item.get(b);
                synchronized (buf) {
                    buf.writeBytes(b);
                }
                s.request(1);
            }

            @Override
            public void onError(Throwable t) {
                out.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                synchronized (buf) {
                    out.complete(buf.toByteArray());
                }
            }
        });
        return out;
    }
}
