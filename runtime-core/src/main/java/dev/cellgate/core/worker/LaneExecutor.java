package dev.cellgate.core.worker;

import io.vertx.core.Context;
import java.util.concurrent.Executor;

/**
 * A stateless lane's serial executor: tasks run in order on one ordered context of the JavaScript
 * threads, and the executor tells when the task running now started, so that requests can pass a
 * lane held by a long turn ({@link dev.cellgate.core.logic.LaneChoice}). Every turn of the lane's
 * JavaScript comes through here (the engine posts timers and host answers to its executor).
 */
final class LaneExecutor implements Executor {
    private final Context context;
    private volatile long turnStartedNanos;

    LaneExecutor(Context context) {
        this.context = context;
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> {
            long t = System.nanoTime();
            turnStartedNanos = t == 0 ? 1 : t;
            try {
                task.run();
            } finally {
                turnStartedNanos = 0;
            }
        });
    }

    /** When the running task started ({@link System#nanoTime()}), or 0 when none runs. */
    long turnStartedNanos() {
        return turnStartedNanos;
    }

    Context context() {
        return context;
    }
}
