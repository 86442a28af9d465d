package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.ForwardFailure.Kind;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.time.Ticker;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The router with a real cell host: another node owns the cell, and a stand-in for the peer
 * protocol "delivers" each forwarded call (counting runs) and then fails it the way the wire
 * can. A call must run at most once whatever the failure, and a streamed body must survive a
 * legitimate reroute.
 */
class CellRouterAtMostOnceTest extends WithCellHost {
    static final CellIdentity CELL = new CellIdentity("C", HexFormat.of().formatHex(new byte[32]).replace("00", "a1"), null);

    /** The owner's side: runs every delivered call, and loses the first answer as {@code firstFailure}. */
    static final class LossyOwner implements Forwarder {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger replayables = new AtomicInteger();
        final List<String> bodies = new CopyOnWriteArrayList<>();
        volatile Kind firstFailure;
        volatile boolean runsBeforeFailing = true;

        @Override
        public CompletableFuture<HttpRequestData> replayable(HttpRequestData request) {
            replayables.incrementAndGet();
            return read(request.body()).thenApply(b -> new HttpRequestData(request.method(), request.url(), request.headers(),
                    Body.of(b), request.requestId()));
        }

        @Override
        public CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
            return read(request.body()).thenCompose(b -> {
                bodies.add(new String(b, StandardCharsets.UTF_8));
                return deliver(() -> HttpResponseData.text(200, "ran " + runs.get()));
            });
        }

        @Override
        public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
            return deliver(() -> new byte[] {(byte) runs.get()});
        }

        @Override
        public CompletableFuture<WakeEntryVerdict.Reply> wake(String node, CellIdentity id, OptionalLong entryMinuteMs) {
            return deliver(() -> WakeEntryVerdict.Reply.KEPT);
        }

        private <T> CompletableFuture<T> deliver(java.util.function.Supplier<T> result) {
            Kind k = firstFailure;
            firstFailure = null;
            if (k == null || runsBeforeFailing) {
                runs.incrementAndGet();
            }
            return k == null ? CompletableFuture.completedFuture(result.get())
                    : CompletableFuture.failedFuture(k == Kind.ANSWERED_ERROR
                            ? ForwardFailedException.answered(new RuntimeException("the object threw"))
                            : new ForwardFailedException(k, "the wire failed: " + k));
        }

        @Override
        public String placementTarget() {
            return null;
        }
    }

    /** n2's router for a cell that live node n1 owns, forwarding through {@code owner}. */
    CellRouter routerOfN2(LossyOwner owner, ForwardFailure.Policy policy) {
        bucket.put(Keys.lease("n1"), new LeaseRecord("n1", "s-n1", "h:1", 2, 0, Long.MAX_VALUE / 2, LeaseRecord.Load.IDLE).encode()).join();
        bucket.put(Keys.ownership(CELL.scope()), new OwnershipRecord("n1", "s-n1", 1).encode()).join();
        CellsConfig cfg = new CellsConfig(dir.resolve("watch-n2"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 4);
        Cells n2 = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n2", "s-n2"), Ticker.SYSTEM), null, () -> script,
                Ticker.SYSTEM, Executors.newFixedThreadPool(2), () -> true, new WakeIndex(bucket));
        CellRouter router = new CellRouter(n2, vertx);
        n2.stubs(router);
        router.forwarder(owner);
        router.policy(policy);
        return router;
    }

    /** Each failure after delivery, once, under {@code policy}: the calls that ran more than once, described. */
    List<String> runTwiceUnder(ForwardFailure.Policy policy) throws Exception {
        List<String> out = new ArrayList<>();
        for (Kind k : List.of(Kind.LOST_AFTER_SEND, Kind.UNTRUSTED_ANSWER, Kind.RESULT_LOST, Kind.ANSWERED_ERROR)) {
            LossyOwner owner = new LossyOwner();
            owner.firstFailure = k;
            CellRouter router = routerOfN2(owner, policy);
            try {
                router.call(CELL, "increment", new byte[0]).get(20, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                // at most once means the caller may get an error here
            }
            if (owner.runs.get() != 1) {
                out.add(k + " ran " + owner.runs.get() + " times");
            }
        }
        return out;
    }

    @Test
    void aCallWhoseAnswerIsLostRunsOnceAndFailsWithAnUnknownOutcome() throws Exception {
        LossyOwner owner = new LossyOwner();
        owner.firstFailure = Kind.LOST_AFTER_SEND;
        CellRouter router = routerOfN2(owner, ForwardFailure.Policy.AT_MOST_ONCE);
        Throwable failure = null;
        try {
            router.call(CELL, "increment", new byte[0]).get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure = e.getCause();
        }
        assertThat(owner.runs.get()).isEqualTo(1);
        assertThat(failure).isInstanceOf(OutcomeUnknownException.class).hasMessageStartingWith("Network connection lost: the call to")
                .hasMessageContaining("outcome unknown");
        assertThat(((StubCallException) failure).retryable()).as("Cloudflare's shape: retryable false").isFalse();
    }

    @Test
    void noFailureAfterDeliveryRunsACallTwice() throws Exception {
        assertThat(runTwiceUnder(ForwardFailure.Policy.AT_MOST_ONCE)).isEmpty();
    }

    @Test
    void theBrokenVariantThatReroutesAfterDeliveryIsCaught() throws Exception {
        assertThat(runTwiceUnder(ForwardFailure.Policy.RESEND_AFTER_DELIVERY))
                .containsExactly("LOST_AFTER_SEND ran 2 times", "UNTRUSTED_ANSWER ran 2 times", "RESULT_LOST ran 2 times");
    }

    @Test
    void aCallThatProvablyDidNotRunIsSentAgainAndRunsOnce() throws Exception {
        for (Kind k : List.of(Kind.CONNECT_FAILED, Kind.NOT_OWNER, Kind.DRAINING)) {
            LossyOwner owner = new LossyOwner();
            owner.firstFailure = k;
            owner.runsBeforeFailing = false;
            byte[] r = routerOfN2(owner, ForwardFailure.Policy.AT_MOST_ONCE).call(CELL, "increment", new byte[0]).get(20, TimeUnit.SECONDS);
            assertThat(r).as("%s", k).containsExactly(1);
        }
    }

    @Test
    void aWakeUpIsSentAgainAfterAnyFailureOfTheWay() throws Exception {
        LossyOwner owner = new LossyOwner();
        owner.firstFailure = Kind.LOST_AFTER_SEND;
        WakeEntryVerdict.Reply reply = routerOfN2(owner, ForwardFailure.Policy.AT_MOST_ONCE).wake(CELL, OptionalLong.of(60_000))
                .get(20, TimeUnit.SECONDS);
        assertThat(owner.runs.get()).as("a wake-up is idempotent").isEqualTo(2);
        assertThat(reply).as("the second wake-up's answer").isEqualTo(WakeEntryVerdict.Reply.KEPT);
    }

    @Test
    void aStreamedBodyIsBufferedOnceAndSentAgainAfterADrainingOwner() throws Exception {
        LossyOwner owner = new LossyOwner();
        owner.firstFailure = Kind.DRAINING;
        owner.runsBeforeFailing = false;
        HttpRequestData req = new HttpRequestData("POST", "http://x/", List.of(), new Body.Stream(readableOnce("streamed"), -1), "r");
        HttpResponseData resp = routerOfN2(owner, ForwardFailure.Policy.AT_MOST_ONCE).fetch(CELL, req).get(20, TimeUnit.SECONDS);
        assertThat(new String(((Body.Bytes) resp.body()).data(), StandardCharsets.UTF_8)).isEqualTo("ran 1");
        assertThat(owner.bodies).containsExactly("streamed", "streamed");
        assertThat(owner.replayables.get()).as("the body is buffered once").isEqualTo(1);
    }

    /** A body stream with one subscriber at most, like a JavaScript ReadableStream's. */
    static Flow.Publisher<ByteBuffer> readableOnce(String text) {
        AtomicBoolean taken = new AtomicBoolean();
        return s -> {
            boolean first = taken.compareAndSet(false, true);
            s.onSubscribe(new Flow.Subscription() {
                boolean done;

                @Override
                public void request(long n) {
                    if (done) {
                        return;
                    }
                    done = true;
                    if (first) {
                        s.onNext(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                        s.onComplete();
                    } else {
                        s.onError(new IllegalStateException("a streamed body can be read only once"));
                    }
                }

                @Override
                public void cancel() {
                    done = true;
                }
            });
        };
    }

    static CompletableFuture<byte[]> read(Body body) {
        return switch (body) {
            case Body.Empty e -> CompletableFuture.completedFuture(new byte[0]);
            case Body.Bytes b -> CompletableFuture.completedFuture(b.data());
            case Body.Stream st -> {
                CompletableFuture<byte[]> out = new CompletableFuture<>();
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                st.publisher().subscribe(new Flow.Subscriber<>() {
                    @Override
                    public void onSubscribe(Flow.Subscription s) {
                        s.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        byte[] b = new byte[item.remaining()];
                        item.get(b);
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
