package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import dev.cellgate.gateway.faults.RetryBudget;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fault proxy itself, driven by the real S3 store plugin against the real S3-compatible
 * server: it is transparent when idle, and each fault does exactly what it claims (in particular a
 * dropped answer leaves the write APPLIED, a reset leaves it not applied). Also the broken variant
 * of the no-retry-storm check: a client that retries throttling at once must fail it.
 */
class FaultProxyIT {
    private static final String SCOPE = "Test:" + "ab".repeat(32);
    private S3Env s3;
    private FaultProxy proxy;
    private OwnershipWitness witness;
    private BucketStore viaProxy;
    private BucketStore direct;

    @BeforeEach
    void start() throws Exception {
        s3 = S3Env.require();
        witness = new OwnershipWitness();
        proxy = FaultProxy.start("proxy-it", s3.endpoint(), new FaultPlan(1), witness, Path.of("target", "it-logs", "proxy-it-faults.log"));
        String url = s3.freshUrl("proxy-it");
        viaProxy = Fleet.openBucket(url, Map.of("S3_ENDPOINT", proxy.endpoint(), "AWS_REGION", s3.region()));
        direct = Fleet.openBucket(url, Map.of("S3_ENDPOINT", s3.endpoint().toString(), "AWS_REGION", s3.region()));
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {viaProxy, direct, proxy}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void idleProxyIsTransparentForEveryStoreOperation() {
        WriteOutcome created = viaProxy.putIfAbsent("k/a", bytes("one")).join();
        assertThat(created).isInstanceOf(WriteOutcome.Written.class);
        assertThat(viaProxy.putIfAbsent("k/a", bytes("two")).join()).isInstanceOf(WriteOutcome.Rejected.class);
        String v = ((WriteOutcome.Written) created).version();
        assertThat(viaProxy.putIfVersion("k/a", bytes("three"), v).join()).isInstanceOf(WriteOutcome.Written.class);
        assertThat(viaProxy.putIfVersion("k/a", bytes("four"), v).join()).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(new String(viaProxy.get("k/a").join().orElseThrow().bytes(), StandardCharsets.UTF_8)).isEqualTo("three");
        assertThat(viaProxy.put("k/b", new byte[200_000]).join()).isInstanceOf(WriteOutcome.Written.class);
        assertThat(viaProxy.list("k/", null, 10).join().keys()).containsExactly("k/a", "k/b");
        viaProxy.delete("k/a").join();
        assertThat(direct.get("k/a").join()).isEmpty();
        assertThat(proxy.stats().counter("upstream_failures")).isZero();
        // One request each. A CI run counted 9 during a 7 s stall of the S3 emulator: the store sent one request
        // again. A retry is the same request twice (a repeat); anything else the proxy would have added or lost.
        long repeats = proxy.stats().counter("repeated_requests");
        assertThat(proxy.stats().total()).as("8 operations through the proxy, one request each (+ %d repeated): %s",
                repeats, proxy.stats().snapshot()).isEqualTo(8 + repeats);
        assertThat(repeats).as("retries of these 8 operations").isLessThanOrEqualTo(2);
    }

    @Test
    void aDroppedAnswerLeavesTheWriteAppliedAndTheOutcomeAmbiguous() {
        proxy.plan().add("drop own.json", c -> c.isCellRecord("/own.json"), 1.0, Action.DROP_RESPONSE);
        String key = "cells/" + SCOPE + "/own.json";
        WriteOutcome o = viaProxy.putIfAbsent(key, new OwnershipRecord("n1", "s1", 1).encode()).join();
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(direct.get(key).join()).as("applied upstream").isPresent();
        assertThat(proxy.stats().ambiguousApplied()).isEqualTo(1);
        assertThat(witness.applied()).containsExactly(new OwnershipWitness.Applied(SCOPE, 1, "n1", "s1", "proxy-it", false));
    }

    /** The bucket-side double-owner check, shown to fail: two owners written at one epoch (what a broken acquire does). */
    @Test
    void theWitnessReportsTwoOwnersOfOneEpochButNotARelease() {
        String key = "cells/" + SCOPE + "/own.json";
        viaProxy.put(key, new OwnershipRecord("n1", "s1", 5).encode()).join();
        viaProxy.put(key, OwnershipRecord.released(5).encode()).join();
        assertThat(witness.doubleOwners()).isEmpty();
        viaProxy.put(key, new OwnershipRecord("n2", "s2", 5).encode()).join();
        assertThat(witness.doubleOwners()).hasSize(1);
        assertThat(witness.doubleOwners().get(0)).startsWith(SCOPE + "@5 owned by").contains("n1/s1").contains("n2/s2");
    }

    @Test
    void aResetBeforeForwardingLeavesNothingWritten() {
        proxy.plan().add("reset writes", c -> c.isWrite(), 1.0, Action.RESET);
        WriteOutcome o = viaProxy.putIfAbsent("r/x", bytes("x")).join();
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(direct.get("r/x").join()).as("never forwarded").isEmpty();
        assertThat(proxy.stats().counter("ambiguous_writes_not_applied")).isEqualTo(1);
    }

    @Test
    void aServerErrorBeforeAnyWorkIsRetriedByTheStoreAndTheWriteSucceeds() {
        AtomicInteger first = new AtomicInteger();
        proxy.plan().add("one 500", c -> c.isWrite() && first.getAndIncrement() < 1, 1.0, Action.SERVER_ERROR_500);
        assertThat(viaProxy.putIfAbsent("e/x", bytes("x")).join()).isInstanceOf(WriteOutcome.Written.class);
        assertThat(proxy.stats().count(Action.SERVER_ERROR_500)).isEqualTo(1);
        assertThat(proxy.stats().total()).isEqualTo(2);
    }

    /** The retry after a 500 meets the first attempt's own write: it must not be taken for another writer's. */
    @Test
    void aServerErrorAfterTheWriteAppliedEndsAmbiguousNeverRejected() {
        AtomicInteger first = new AtomicInteger();
        proxy.plan().add("500 after applying", c -> c.isWrite() && first.getAndIncrement() < 1, 1.0,
                Action.SERVER_ERROR_500_AFTER_APPLYING);
        WriteOutcome o = viaProxy.putIfAbsent("e/y", bytes("y")).join();
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(((WriteOutcome.Ambiguous) o).reason()).contains("may have been applied").contains("412");
        assertThat(direct.get("e/y").join()).as("applied upstream by the first attempt").isPresent();
        assertThat(proxy.stats().total()).isEqualTo(2);
    }

    @Test
    void slowDownIsRetriedByTheStoreAndThenSucceeds() {
        AtomicInteger first = new AtomicInteger();
        proxy.plan().add("two 503s", c -> c.isWrite() && first.getAndIncrement() < 2, 1.0, Action.THROTTLE_503);
        assertThat(viaProxy.putIfAbsent("t/x", bytes("x")).join()).isInstanceOf(WriteOutcome.Written.class);
        assertThat(proxy.stats().count(Action.THROTTLE_503)).isEqualTo(2);
        assertThat(proxy.stats().total()).isEqualTo(3);
    }

    @Test
    void sustained429ExhaustsExactlyThePolicysAttemptsThenIsAmbiguous() {
        proxy.plan().add("429", c -> true, 1.0, Action.THROTTLE_429);
        WriteOutcome o = viaProxy.putIfAbsent("t/y", bytes("y")).join();
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(((WriteOutcome.Ambiguous) o).reason()).contains("throttled");
        assertThat(proxy.stats().total()).isEqualTo(RetryBudget.STORE_S3.maxAttempts());
    }

    @Test
    void latencyDelaysEveryRequest() {
        viaProxy.put("l/x", bytes("x")).join();
        proxy.plan().latency(300, 300);
        long t0 = System.nanoTime();
        assertThat(viaProxy.get("l/x").join()).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aCutOffHoldsRequestsUnansweredUntilLifted() throws Exception {
        viaProxy.put("c/x", bytes("x")).join();
        proxy.plan().cutOff(true);
        CompletableFuture<?> read = viaProxy.get("c/x");
        Thread.sleep(1500);
        assertThat(read).as("no answer while cut off").isNotDone();
        assertThat(proxy.stats().count(Action.BLACKHOLE)).isPositive();
        proxy.plan().cutOff(false);
        assertThat(read.get()).as("the store retries the read once the bucket is back").isNotNull();
    }

    @Test
    void aSilentlyDroppedAnswerTimesOutWithTheWriteApplied() {
        proxy.plan().add("silent", c -> c.isWrite(), 1.0, Action.DROP_RESPONSE_SILENT);
        WriteOutcome o = viaProxy.putIfAbsent("s/x", bytes("x")).join();
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(direct.get("s/x").join()).isPresent();
        assertThat(proxy.stats().ambiguousApplied()).isEqualTo(1);
    }

    /** The store's own retries stay within the bound; a client retrying at once (the broken variant) does not. */
    @Test
    void theRateCheckPassesTheStoresBackoffAndCatchesARetryStorm() throws Exception {
        proxy.plan().add("429", c -> true, 1.0, Action.THROTTLE_429);
        int chains = 4;
        long t0 = System.currentTimeMillis();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < chains; i++) {
            int n = i;
            workers.add(Thread.ofPlatform().start(() -> {
                while (System.currentTimeMillis() - t0 < 8_000) {
                    viaProxy.get("rate/" + n).handle((r, e) -> null).join();
                }
            }));
        }
        for (Thread t : workers) {
            t.join();
        }
        long t1 = System.currentTimeMillis();
        RetryBudget.Verdict store = RetryBudget.STORE_S3.judge(proxy.stats().perSecond(t0 + 1000 - t0 % 1000, t1 - t1 % 1000), chains, 1.3);
        System.out.println("store under 429: " + store.detail());
        assertThat(store.ok()).as(store.detail()).isTrue();

        long s0 = System.currentTimeMillis() + 1000 - System.currentTimeMillis() % 1000;
        long sEnd = s0 + 3000;
        while (System.currentTimeMillis() < sEnd) {
            HttpResponse<String> r = NodeProcess.HTTP.send(HttpRequest.newBuilder(URI.create(proxy.endpoint() + "/" + s3.bucket() + "/storm"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(429);
        }
        RetryBudget.Verdict storm = RetryBudget.STORE_S3.judge(proxy.stats().perSecond(s0, sEnd), 1, 1.3);
        System.out.println("storm under 429: " + storm.detail());
        assertThat(storm.ok()).as("a client without backoff must fail the check: " + storm.detail()).isFalse();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
