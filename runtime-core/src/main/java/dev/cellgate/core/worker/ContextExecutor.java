package dev.cellgate.core.worker;

import io.vertx.core.Context;
import java.util.concurrent.Executor;

/**
 * Runs tasks on one Vert.x event-loop context, in order. JavaScript instances are pinned to a
 * context this way: a request arriving on that event loop runs its Worker with no thread hop.
 */
public record ContextExecutor(Context context) implements Executor {
    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> task.run());
    }

    /** True when called on this context's thread. */
    public boolean onContext() {
        return Context.isOnEventLoopThread() && io.vertx.core.Vertx.currentContext() == context;
    }
}
