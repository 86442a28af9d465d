package dev.cellgate.core.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Runs an asynchronous action over a list with at most {@code limit} actions in flight, without a
 * thread of its own: each completion starts the next item. Completions that arrive synchronously
 * (an already-completed future) are trampolined, so a long list never deepens the stack.
 */
public final class BoundedParallel<T> {
    private final List<T> items;
    private final int limit;
    private final Function<T, CompletableFuture<?>> action;
    private final CompletableFuture<Tally> result = new CompletableFuture<>();
    private final List<Throwable> failures = new ArrayList<>();
    private int next;
    private int inFlight;
    private int succeeded;
    private boolean pumping;
    private boolean again;
    private boolean finished;

    /** How the actions ended: a failure is an action whose future completed exceptionally (or that threw). */
    public record Tally(int succeeded, List<Throwable> failures) {
        public int failed() {
            return failures.size();
        }
    }

    private BoundedParallel(List<T> items, int limit, Function<T, CompletableFuture<?>> action) {
        this.items = List.copyOf(items);
        this.limit = limit;
        this.action = action;
    }

    /** Never completes exceptionally: failures are counted in the {@link Tally}. */
    public static <T> CompletableFuture<Tally> run(List<T> items, int limit, Function<T, CompletableFuture<?>> action) {
        if (limit < 1) {
            throw new IllegalArgumentException("parallelism must be positive, got " + limit);
        }
        BoundedParallel<T> run = new BoundedParallel<>(items, limit, action);
        run.pump();
        return run.result;
    }

    private void pump() {
        synchronized (this) {
            if (pumping) {
                again = true; // the running pump loop picks this up: no recursion
                return;
            }
            pumping = true;
        }
        while (true) {
            T item = null;
            boolean finish = false;
            synchronized (this) {
                if (next < items.size() && inFlight < limit) {
                    item = items.get(next++);
                    inFlight++;
                } else if (again) {
                    again = false;
                    continue;
                } else {
                    pumping = false;
                    finish = !finished && inFlight == 0 && next == items.size();
                    finished |= finish;
                }
            }
            if (item == null) {
                if (finish) {
                    result.complete(tally());
                }
                return;
            }
            launch(item);
        }
    }

    private void launch(T item) {
        CompletableFuture<?> f;
        try {
            f = action.apply(item);
            if (f == null) {
                f = CompletableFuture.failedFuture(new NullPointerException("action returned no future for " + item));
            }
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> {
            synchronized (this) {
                inFlight--;
                if (e != null) {
                    failures.add(e);
                } else {
                    succeeded++;
                }
            }
            pump();
        });
    }

    private synchronized Tally tally() {
        return new Tally(succeeded, List.copyOf(failures));
    }
}
