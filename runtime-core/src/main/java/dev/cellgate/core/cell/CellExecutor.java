package dev.cellgate.core.cell;

import dev.cellgate.core.observe.LogContext;
import io.vertx.core.Context;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cell's serial executor: tasks run in order on one ordered context of the JavaScript threads
 * ({@link dev.cellgate.core.worker.JsThreads}, never an event loop), and each ends
 * with the cell's turn bookkeeping (commit the turn's writes, hand them to the output gate).
 * Everything that touches the cell's JavaScript or SQLite goes through here. Each task runs with
 * the cell's scope in the log context, so every line it writes names the cell.
 */
final class CellExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(CellExecutor.class);

    private final Context context;
    private final String scope;
    private volatile Runnable afterTurn = () -> { };

    CellExecutor(Context context, String scope) {
        this.context = context;
        this.scope = scope;
    }

    void afterTurn(Runnable hook) {
        this.afterTurn = hook;
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> {
            try (LogContext.Scope s = LogContext.enter(null, scope)) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.atError().setMessage("cell.task_failed").addKeyValue("error", e.toString()).setCause(e).log();
                } finally {
                    afterTurn.run();
                }
            }
        });
    }

    Context context() {
        return context;
    }
}
