package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Behaviour of a Worker instance that the differential harness cannot see: errors, in-flight counting, threading, back-pressure. */
class InstanceTest {
    static TestEngine engine;
    static OriginServer origin;
    static TestWorker worker;

    static final String WORKER = """
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            let pulls = 0, cancelled = false, release = null;
            export default {
              async fetch(req, env, ctx) {
                const url = new URL(req.url);
                switch (url.pathname) {
                  case '/throw': { function inner() { throw new RangeError('deep failure'); } inner(); }
                  case '/wait-until': ctx.waitUntil(new Promise((r) => { release = r; })); return new Response('answered');
                  case '/release': release(); return new Response('released');
                  case '/busy': {
                    // timers, outbound fetch and crypto in one event: every callback must come back on the executor
                    await sleep(1);
                    const r = await fetch(req.headers.get('x-origin') + '/text');
                    const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(await r.text()));
                    await sleep(1);
                    return new Response(String(new Uint8Array(d)[0]));
                  }
                  case '/upload': {
                    let n = 0;
                    for await (const c of req.body) { n += c.byteLength; await sleep(1); }
                    return new Response(String(n));
                  }
                  case '/endless':
                    return new Response(new ReadableStream({
                      pull(c) { pulls++; c.enqueue(new Uint8Array(1024)); },
                      cancel() { cancelled = true; },
                    }, { highWaterMark: 0 }));
                  case '/pulls': return Response.json({ pulls, cancelled });
                }
                return new Response('ok');
              },
            };
            """;

    @BeforeAll
    static void start() throws Exception {
        engine = new TestEngine();
        origin = OriginServer.start(engine.vertx);
        worker = engine.worker(Bundles.single(WORKER));
    }

    @AfterAll
    static void stop() throws Exception {
        worker.close();
        origin.close();
        engine.close();
    }

    @Test
    void aJsExceptionFailsTheEventWithItsClassMessageAndStack() {
        assertThatThrownBy(() -> worker.get("http://x.test/throw"))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(JsException.class)
                .hasMessage("RangeError: deep failure")
                .satisfies(e -> {
                    JsException js = (JsException) e;
                    assertThat(js.jsName()).isEqualTo("RangeError");
                    assertThat(js.jsStack()).contains("inner").contains("index.js");
                });
    }

    @Test
    void waitUntilKeepsTheEventInFlightUntilItSettles() throws Exception {
        HttpResponseData r = worker.get("http://x.test/wait-until");
        assertThat(Responses.text(r)).isEqualTo("answered");
        int during = worker.host.executor().submit(() -> inFlight()).get();
        assertThat(during).as("answered, but its waitUntil promise is pending").isEqualTo(1);
        assertThat(worker.text("http://x.test/release")).isEqualTo("released");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int after;
        do {
            Thread.sleep(20);
            after = worker.host.executor().submit(() -> inFlight()).get();
        } while (after != 0 && System.nanoTime() < deadline);
        assertThat(after).isZero();
    }

    private static int inFlight() {
        return ((dev.cellgate.js.graal.bundle.WorkerInstanceAccess) () -> worker.worker).eventsInFlight();
    }

    @Test
    void concurrentEventsWithAsyncHostResultsAllSucceed() throws Exception {
        List<CompletableFuture<HttpResponseData>> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            all.add(worker.send(new HttpRequestData("GET", "http://x.test/busy", List.of(Map.entry("x-origin", origin.url())), Body.EMPTY, "c" + i)));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        int firstByte = java.security.MessageDigest.getInstance("SHA-256").digest("origin text".getBytes(StandardCharsets.UTF_8))[0] & 0xff;
        for (CompletableFuture<HttpResponseData> f : all) {
            assertThat(Responses.text(f.get())).isEqualTo(String.valueOf(firstByte));
        }
    }

    @Test
    void aStreamedUploadIsReadOneChunkAtATime() throws Exception {
        AtomicLong maxOutstanding = new AtomicLong();
        AtomicInteger sent = new AtomicInteger();
        Flow.Publisher<ByteBuffer> upload = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            long outstanding;

            @Override
            public synchronized void request(long n) {
                outstanding += n;
                maxOutstanding.accumulateAndGet(outstanding, Math::max);
                while (outstanding > 0 && sent.get() < 50) {
                    outstanding--;
                    sent.incrementAndGet();
                    subscriber.onNext(ByteBuffer.wrap(new byte[100]));
                }
                if (sent.get() == 50) {
                    sent.incrementAndGet();
                    subscriber.onComplete();
                }
            }

            @Override
            public void cancel() {
            }
        });
        HttpResponseData r = worker.send(new HttpRequestData("POST", "http://x.test/upload", List.of(), new Body.Stream(upload, -1), "up"))
                .get(60, TimeUnit.SECONDS);
        assertThat(Responses.text(r)).isEqualTo("5000");
        assertThat(maxOutstanding.get()).as("demand never runs ahead of the reader").isEqualTo(1);
    }

    @Test
    void aStreamedResponseIsProducedOnlyAsFastAsItIsRead() throws Exception {
        HttpResponseData r = worker.get("http://x.test/endless");
        assertThat(r.body()).isInstanceOf(Body.Stream.class);
        CompletableFuture<Integer> received = new CompletableFuture<>();
        ((Body.Stream) r.body()).publisher().subscribe(new Flow.Subscriber<>() {
            Flow.Subscription s;
            int chunks;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                this.s = s;
                s.request(3);
            }

            @Override
            public void onNext(ByteBuffer item) {
                if (++chunks == 3) {
                    s.cancel();
                    received.complete(chunks);
                }
            }

            @Override
            public void onError(Throwable t) {
                received.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                received.complete(chunks);
            }
        });
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(3);
        String pulls = "";
        for (int i = 0; i < 100 && !pulls.contains("true"); i++) {
            Thread.sleep(10);
            pulls = worker.text("http://x.test/pulls");
        }
        assertThat(pulls).isEqualTo("{\"pulls\":3,\"cancelled\":true}");
    }

    @Test
    void theRequestIdReachesTheEvent() throws Exception {
        HttpResponseData r = worker.send(new HttpRequestData("GET", "http://x.test/", List.of(), Body.EMPTY, "rid-1")).get();
        assertThat(new String(Responses.bytes(r.body()), StandardCharsets.UTF_8)).isEqualTo("ok");
    }
}
