package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BoundedParallelTest {

    @Test
    void neverMoreThanTheLimitInFlightAndEveryItemRuns() {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        List<Integer> items = IntStream.range(0, 200).boxed().toList();
        CompletableFuture<BoundedParallel.Tally> done = BoundedParallel.run(items, 64, i -> {
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
        BoundedParallel.Tally t = done.join();
        assertThat(t.failed()).isEqualTo(29); // 0, 7, ..., 196
        assertThat(t.succeeded()).isEqualTo(171);
    }

    @Test
    void synchronousCompletionsDoNotGrowTheStack() {
        List<Integer> items = IntStream.range(0, 200_000).boxed().toList();
        BoundedParallel.Tally t = BoundedParallel.run(items, 1, i -> CompletableFuture.completedFuture(null)).join();
        assertThat(t.succeeded()).isEqualTo(200_000);
    }

    @Test
    void anActionThatThrowsIsAFailureNotACrash() {
        BoundedParallel.Tally t = BoundedParallel.run(List.of(1, 2, 3), 2, i -> {
            if (i == 2) {
                throw new IllegalArgumentException("bad item");
            }
            return CompletableFuture.completedFuture(null);
        }).join();
        assertThat(t.succeeded()).isEqualTo(2);
        assertThat(t.failures()).singleElement().isInstanceOf(IllegalArgumentException.class);
        assertThat(BoundedParallel.run(List.<Integer>of(), 3, i -> null).join().succeeded()).isZero();
    }
}
