package dev.cellgate.replicator.wal.bucket;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Runs an async step over a list with at most {@code parallelism} steps in flight; results keep list order. */
public final class Parallel {
    private Parallel() {
    }

    public static <A, B> CompletableFuture<List<B>> map(List<A> items, int parallelism, Function<A, CompletableFuture<B>> step) {
        List<CompletableFuture<B>> results = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            results.add(new CompletableFuture<>());
        }
        AtomicInteger next = new AtomicInteger();
        for (int w = 0; w < Math.min(parallelism, items.size()); w++) {
            pump(items, results, next, step);
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(x -> results.stream().map(CompletableFuture::join).toList());
    }

    private static <A, B> void pump(List<A> items, List<CompletableFuture<B>> results, AtomicInteger next,
                                    Function<A, CompletableFuture<B>> step) {
        int i = next.getAndIncrement();
        if (i >= items.size()) {
            return;
        }
        CompletableFuture<B> f;
        try {
            f = step.apply(items.get(i));
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, err) -> {
            if (err != null) {
                results.get(i).completeExceptionally(err);
                // Fail fast: mark everything not started as failed too, so allOf completes now.
                for (int j = next.getAndSet(items.size()); j < items.size(); j++) {
                    results.get(j).completeExceptionally(err);
                }
            } else {
                results.get(i).complete(v);
                pump(items, results, next, step);
            }
        });
    }
}
