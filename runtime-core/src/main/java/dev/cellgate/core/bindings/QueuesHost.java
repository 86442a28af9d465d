package dev.cellgate.core.bindings;

import dev.cellgate.core.logic.QueueDelivery;
import dev.cellgate.core.spi.js.BindingMethod;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * What a queue cell ({@code bindings/queues.js}) asks the host: which consumer a queue has, when
 * its next batch is due, and the fate of each message of a delivered batch — all answered by the
 * pure {@link QueueDelivery}. Numbers arrive as JavaScript numbers (doubles).
 */
public final class QueuesHost {
    private final Map<String, QueueDelivery.Settings> consumers;
    private final String broken;

    QueuesHost(Map<String, QueueDelivery.Settings> consumers, String broken) {
        this.consumers = Map.copyOf(consumers);
        this.broken = broken;
    }

    /** The consumer of {@code queue} as JSON ({@code maxBatchSize, maxBatchTimeoutS, maxRetries, retryDelayS, deadLetterQueue}), or null. */
    @BindingMethod
    public String consumer(String queue) {
        QueueDelivery.Settings s = consumers.get(queue);
        if (s == null) {
            return null;
        }
        return new JsonObject().put("maxBatchSize", s.maxBatchSize()).put("maxBatchTimeoutS", s.maxBatchTimeoutS())
                .put("maxRetries", s.maxRetries()).put("retryDelayS", s.retryDelayS()).put("deadLetterQueue", s.deadLetterQueue()).encode();
    }

    /** {@link QueueDelivery#next}: {@code [count, wakeAtMs]} as JSON. */
    @BindingMethod
    public String next(String queue, int ready, double oldestReadySinceMs, double nextDelayedReadyMs, double nowMs) {
        QueueDelivery.Next n = QueueDelivery.next(settings(queue), ready, (long) oldestReadySinceMs, (long) nextDelayedReadyMs, (long) nowMs);
        return "[" + n.count() + "," + n.wakeAtMs() + "]";
    }

    /** {@link QueueDelivery#fate}: {@code "DELETE"}, {@code "DROP"}, {@code "DEAD_LETTER"} or {@code "REDELIVER:<readyAtMs>"}. */
    @BindingMethod
    public String fate(String queue, int attempts, String own, double ownDelayS, String batch, double batchDelayS, boolean threw,
                       double nowMs) {
        QueueDelivery.Fate f = QueueDelivery.fate(settings(queue), attempts, QueueDelivery.Call.valueOf(own), (long) ownDelayS,
                QueueDelivery.Call.valueOf(batch), (long) batchDelayS, threw, (long) nowMs);
        return f.kind() == QueueDelivery.Kind.REDELIVER ? "REDELIVER:" + f.readyAtMs() : f.kind().name();
    }

    /** The cell scope of a queue (a dead letter queue's, for the cell that moves messages there). */
    @BindingMethod
    public String scopeOf(String queue) {
        return QueueCells.scopeOf(queue);
    }

    /** The broken variant this node runs (tests only), or null. */
    @BindingMethod
    public String broken() {
        return broken;
    }

    private QueueDelivery.Settings settings(String queue) {
        QueueDelivery.Settings s = consumers.get(queue);
        if (s == null) {
            throw new IllegalArgumentException("queue " + queue + " has no consumer in this deployment");
        }
        return s;
    }
}
