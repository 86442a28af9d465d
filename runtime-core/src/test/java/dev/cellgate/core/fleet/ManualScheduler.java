package dev.cellgate.core.fleet;

import dev.cellgate.core.time.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A test scheduler on virtual time: tasks run only when the test advances the clock. */
final class ManualScheduler implements Scheduler {
    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long seq;

    private static final class Task {
        final long due;
        final long order;
        final Runnable run;
        boolean cancelled;

        Task(long due, long order, Runnable run) {
            this.due = due;
            this.order = order;
            this.run = run;
        }
    }

    ManualScheduler(long start) {
        this.now = start;
    }

    synchronized long now() {
        return now;
    }

    @Override
    public synchronized Cancellable after(long delayMs, Runnable task) {
        Task t = new Task(now + Math.max(0, delayMs), seq++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                t.cancelled = true;
            }
        };
    }

    /** Runs every task due up to {@code time}, in due order, moving the clock along. */
    void advanceTo(long time) {
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> !t.cancelled && t.due <= time)
                        .min(Comparator.comparingLong((Task t) -> t.due).thenComparingLong(t -> t.order)).orElse(null);
                if (next == null) {
                    now = Math.max(now, time);
                    return;
                }
                tasks.remove(next);
                now = Math.max(now, next.due);
            }
            next.run.run();
        }
    }
}
