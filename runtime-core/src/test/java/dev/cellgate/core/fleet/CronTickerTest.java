package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.ActiveTriggers;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.CronClaimRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cron claims through a real (file) bucket: one run per occurrence whichever node ticks, one catch-up after an outage. */
class CronTickerTest {
    static final String EVERY_MINUTE = "* * * * *";
    @TempDir
    Path dir;
    FileBucketStore bucket;
    final AtomicLong now = new AtomicLong(at("2024-03-05T10:00:40Z"));
    final List<String> runs = new CopyOnWriteArrayList<>();
    final AtomicBoolean mayRun = new AtomicBoolean(true);
    volatile CompletableFuture<Void> runResult = CompletableFuture.completedFuture(null);
    volatile ActiveTriggers active = new ActiveTriggers("d1", "w", List.of(EVERY_MINUTE), at("2024-03-05T10:00:30Z"));

    static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + dir.resolve("b"), dir.resolve("b"), false);
    }

    @AfterEach
    void close() {
        bucket.close();
    }

    CronTicker ticker(String node, BucketStore store) {
        // a scheduler that never fires: the test calls tick() itself, at the times it sets
        return new CronTicker(store, node, now::get, (d, t) -> () -> { }, new CronTicker.Host() {
            @Override
            public ActiveTriggers active() {
                return active;
            }

            @Override
            public boolean mayRun() {
                return mayRun.get();
            }

            @Override
            public CompletableFuture<Void> run(String cron, long occurrenceMs) {
                runs.add(node + " " + cron + " " + Instant.ofEpochMilli(occurrenceMs));
                return runResult;
            }
        }, () -> UUID.randomUUID().toString());
    }

    void tickAll(List<CronTicker> nodes, String iso) throws Exception {
        now.set(at(iso));
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (CronTicker t : nodes) {
            all.add(t.tick());
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void threeNodesRunEachOccurrenceOnce() throws Exception {
        List<CronTicker> nodes = List.of(ticker("a", bucket), ticker("b", bucket), ticker("c", bucket));
        tickAll(nodes, "2024-03-05T10:00:40Z"); // 10:00 came due before the push: not run
        assertThat(runs).isEmpty();
        for (String t : List.of("2024-03-05T10:01:00.100Z", "2024-03-05T10:01:20Z", "2024-03-05T10:02:00.050Z",
                "2024-03-05T10:02:00.900Z", "2024-03-05T10:03:01Z")) {
            tickAll(nodes, t);
        }
        assertThat(runs).hasSize(3);
        assertThat(runs.stream().map(r -> r.substring(2)).toList()).containsExactly(
                "* * * * * 2024-03-05T10:01:00Z", "* * * * * 2024-03-05T10:02:00Z", "* * * * * 2024-03-05T10:03:00Z");
        CronClaimRecord rec = CronClaimRecord.decode(bucket.get(Keys.cronClaim("w", EVERY_MINUTE)).get().orElseThrow().bytes());
        assertThat(rec.occurrenceMs()).isEqualTo(at("2024-03-05T10:03:00Z"));
    }

    @Test
    void afterAnOutageOneCatchUpRuns() throws Exception {
        active = new ActiveTriggers("d1", "w", List.of("0 * * * *"), 0);
        bucket.put(Keys.cronClaim("w", "0 * * * *"), new CronClaimRecord("0 * * * *", at("2024-03-05T07:00:00Z"), "old", "t").encode()).get();
        List<CronTicker> nodes = List.of(ticker("a", bucket), ticker("b", bucket));
        tickAll(nodes, "2024-03-05T10:20:00Z");
        tickAll(nodes, "2024-03-05T10:40:00Z");
        assertThat(runs).hasSize(1);
        assertThat(runs.getFirst()).endsWith("0 * * * * 2024-03-05T10:00:00Z");
    }

    @Test
    void aDrainingOrDegradedNodeClaimsNothing() throws Exception {
        mayRun.set(false);
        tickAll(List.of(ticker("a", bucket)), "2024-03-05T10:01:00.100Z");
        assertThat(runs).isEmpty();
        assertThat(bucket.get(Keys.cronClaim("w", EVERY_MINUTE)).get()).isEmpty();
    }

    @Test
    void anAmbiguousClaimRunsOnlyWhenTheReadBackShowsThisAttempt() throws Exception {
        // a: its create landed, but the answer was lost; b: the answer was lost and nothing landed
        BucketStore landed = new ForwardingBucketStore(bucket) {
            @Override
            public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
                return inner.putIfAbsent(key, bytes).thenApply(o -> new WriteOutcome.Ambiguous("injected: answer lost", null));
            }
        };
        tickAll(List.of(ticker("a", landed)), "2024-03-05T10:01:00.100Z");
        assertThat(runs).containsExactly("a * * * * * 2024-03-05T10:01:00Z");

        BucketStore lost = new ForwardingBucketStore(bucket) {
            @Override
            public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("injected: timeout before the write", null));
            }
        };
        tickAll(List.of(ticker("b", lost)), "2024-03-05T10:02:00.100Z");
        assertThat(runs).hasSize(1);
    }

    @Test
    void aRunIsCountedUntilItEndsSoAStoppingNodeWaitsForIt() throws Exception {
        runResult = new CompletableFuture<>();
        CronTicker a = ticker("a", bucket);
        tickAll(List.of(a), "2024-03-05T10:01:00.100Z");
        assertThat(runs).hasSize(1);
        assertThat(a.running()).isEqualTo(1);
        runResult.completeExceptionally(new IllegalStateException("the handler threw"));
        assertThat(a.running()).isZero();
    }
}
