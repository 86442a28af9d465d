package dev.cellgate.core.fleet;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/** Paged listings of the bucket. */
final class Listings {
    static final int PAGE = 1000;

    private Listings() {
    }

    /** Every key under {@code prefix}, in key order. */
    static CompletableFuture<List<String>> all(BucketStore store, String prefix) {
        return until(store, prefix, k -> true);
    }

    /**
     * Keys under {@code prefix} in key order, stopping before the first key for which {@code keepGoing}
     * is false (the rest of the listing is not read).
     */
    static CompletableFuture<List<String>> until(BucketStore store, String prefix, Predicate<String> keepGoing) {
        List<String> out = new ArrayList<>();
        return page(store, prefix, null, keepGoing, out).thenApply(x -> out);
    }

    private static CompletableFuture<Void> page(BucketStore store, String prefix, String cursor,
                                                Predicate<String> keepGoing, List<String> out) {
        return store.list(prefix, cursor, PAGE).thenCompose(p -> {
            for (String k : p.keys()) {
                if (!keepGoing.test(k)) {
                    return CompletableFuture.completedFuture(null);
                }
                out.add(k);
            }
            return p.last() ? CompletableFuture.<Void>completedFuture(null) : page(store, prefix, p.nextCursor(), keepGoing, out);
        });
    }
}
