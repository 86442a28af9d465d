package dev.cellgate.core.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AsyncLimiterTest {

    @Test
    void runsAtMostThePermitsAtOnceAndTheRestInArrivalOrder() {
        AsyncLimiter limiter = new AsyncLimiter(2);
        List<Integer> started = new ArrayList<>();
        List<CompletableFuture<Integer>> pending = new ArrayList<>();
        List<CompletableFuture<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            results.add(limiter.run(() -> {
                started.add(n);
                CompletableFuture<Integer> f = new CompletableFuture<>();
                pending.add(f);
                return f;
            }));
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(limiter.running()).isEqualTo(2);
        assertThat(limiter.queued()).isEqualTo(3);
        pending.get(1).complete(1);
        assertThat(started).containsExactly(0, 1, 2);
        pending.get(0).completeExceptionally(new IllegalStateException("boom"));
        assertThat(started).containsExactly(0, 1, 2, 3);
        pending.get(2).complete(2);
        pending.get(3).complete(3);
        pending.get(4).complete(4);
        assertThat(results.get(1).join()).isEqualTo(1);
        assertThatThrownBy(results.get(0)::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(results.get(4).join()).isEqualTo(4);
        assertThat(limiter.peak()).isEqualTo(2);
        assertThat(limiter.running()).isZero();
    }

    @Test
    void anOperationThatThrowsOrReturnsNothingFailsAndGivesItsPermitBack() {
        AsyncLimiter limiter = new AsyncLimiter(1);
        CompletableFuture<Object> threw = limiter.run(() -> {
            throw new IllegalArgumentException("bad");
        });
        CompletableFuture<Object> none = limiter.run(() -> null);
        assertThatThrownBy(threw::join).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(none::join).hasCauseInstanceOf(NullPointerException.class);
        assertThat(limiter.run(() -> CompletableFuture.completedFuture("ok")).join()).isEqualTo("ok");
        assertThatThrownBy(() -> new AsyncLimiter(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A long queue behind one slow operation, all of whose followers complete at once, must not
     * recurse: the limiter this replaced overflowed the stack inside a completion, where the error
     * is swallowed, and the last result never completed (a hang, hence the timeout).
     */
    @Test
    @Timeout(30)
    void aQueueOfSynchronousCompletionsDrainsWithoutGrowingTheStack() {
        AsyncLimiter limiter = new AsyncLimiter(1);
        CompletableFuture<Void> slow = new CompletableFuture<>();
        limiter.run(() -> slow);
        AtomicInteger ran = new AtomicInteger();
        CompletableFuture<?> last = null;
        for (int i = 0; i < 200_000; i++) {
            last = limiter.run(() -> {
                ran.incrementAndGet();
                return CompletableFuture.completedFuture(null);
            });
        }
        slow.complete(null);
        last.join();
        assertThat(ran.get()).isEqualTo(200_000);
    }

    // ------------------------------------------------------------------ forEach (was fleet/BoundedParallel)

    @Test
    void forEachNeverHasMoreThanTheLimitInFlightAndRunsEveryItem() {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        List<Integer> items = IntStream.range(0, 200).boxed().toList();
        CompletableFuture<AsyncLimiter.Tally> done = AsyncLimiter.forEach(items, 64, i -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Void> f = new CompletableFuture<>();
            pending.add(f);
            return f.whenComplete((v, e) -> inFlight.decrementAndGet());
        });
        assertThat(pending).hasSize(64);
        for (int i = 0; i < pending.size(); i++) { // completing one starts the next
            if (i % 7 == 0) {
                pending.get(i).completeExceptionally(new IllegalStateException("boom " + i));
            } else {
                pending.get(i).complete(null);
            }
        }
        assertThat(pending).hasSize(200);
        assertThat(peak.get()).isEqualTo(64);
        AsyncLimiter.Tally t = done.join();
        assertThat(t.failed()).isEqualTo(29); // 0, 7, ..., 196
        assertThat(t.succeeded()).isEqualTo(171);
    }

    @Test
    void forEachOfSynchronousCompletionsDoesNotGrowTheStack() {
        List<Integer> items = IntStream.range(0, 200_000).boxed().toList();
        AsyncLimiter.Tally t = AsyncLimiter.forEach(items, 1, i -> CompletableFuture.completedFuture(null)).join();
        assertThat(t.succeeded()).isEqualTo(200_000);
    }

    @Test
    void forEachCountsAnActionThatThrowsAsAFailure() {
        AsyncLimiter.Tally t = AsyncLimiter.forEach(List.of(1, 2, 3), 2, i -> {
            if (i == 2) {
                throw new IllegalArgumentException("bad item");
            }
            return CompletableFuture.completedFuture(null);
        }).join();
        assertThat(t.succeeded()).isEqualTo(2);
        assertThat(t.failures()).singleElement().isInstanceOf(IllegalArgumentException.class);
        assertThat(AsyncLimiter.forEach(List.<Integer>of(), 3, i -> null).join().succeeded()).isZero();
        assertThatThrownBy(() -> AsyncLimiter.forEach(List.of(1), 0, i -> null)).isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------ map (was replicator-wal's bucket/Parallel)

    @Test
    void mapKeepsTheItemsOrderWhateverOrderTheyEndIn() {
        List<CompletableFuture<String>> pending = new ArrayList<>();
        CompletableFuture<List<String>> out = AsyncLimiter.map(List.of(1, 2, 3, 4), 4, i -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            pending.add(f);
            return f;
        });
        for (int i = 3; i >= 0; i--) {
            pending.get(i).complete("r" + (i + 1));
        }
        assertThat(out.join()).containsExactly("r1", "r2", "r3", "r4");
    }

    @Test
    void mapStartsNothingAfterTheFirstFailureAndFailsWithIt() {
        AtomicInteger started = new AtomicInteger();
        List<CompletableFuture<Integer>> pending = new ArrayList<>();
        CompletableFuture<List<Integer>> out = AsyncLimiter.map(IntStream.range(0, 10).boxed().toList(), 2, i -> {
            started.incrementAndGet();
            CompletableFuture<Integer> f = new CompletableFuture<>();
            pending.add(f);
            return f;
        });
        assertThat(started.get()).isEqualTo(2);
        pending.get(0).completeExceptionally(new IllegalStateException("first"));
        assertThat(started.get()).as("no item starts after a failure").isEqualTo(2);
        assertThat(out).as("the step still running is waited for").isNotDone();
        pending.get(1).complete(1);
        assertThatThrownBy(out::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("first");
    }
}
