package dev.cellgate.core.async;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Starting an asynchronous operation whose start itself may fail: a throw or no future is a failed operation. */
final class Started {
    private Started() {
    }

    static <T> CompletableFuture<T> by(Supplier<CompletableFuture<T>> op, String what) {
        try {
            CompletableFuture<T> f = op.get();
            return f != null ? f : CompletableFuture.failedFuture(new NullPointerException(what + " returned no future"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
