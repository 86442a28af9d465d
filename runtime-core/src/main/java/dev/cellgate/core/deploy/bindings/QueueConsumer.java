package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code queues.consumers[]}: this Worker's {@code queue()} handler consumes {@code queue}. Not an
 * env binding; the manifest keeps them in {@code queue_consumers}. Unset numbers are null (the
 * queue's defaults apply).
 */
public record QueueConsumer(String queue, Long maxBatchSize, Long maxBatchTimeout, Long maxRetries, String deadLetterQueue,
                            Long maxConcurrency, Long retryDelay) {
    private static final Set<String> FIELDS = Set.of("queue", "max_batch_size", "max_batch_timeout", "max_retries",
            "dead_letter_queue", "max_concurrency", "retry_delay");

    public QueueConsumer {
        java.util.Objects.requireNonNull(queue, "queue");
    }

    public JsonObject toJson() {
        JsonObject o = new JsonObject().put("queue", queue);
        StrictJson.putIf(o, "max_batch_size", maxBatchSize);
        StrictJson.putIf(o, "max_batch_timeout", maxBatchTimeout);
        StrictJson.putIf(o, "max_retries", maxRetries);
        StrictJson.putIf(o, "dead_letter_queue", deadLetterQueue);
        StrictJson.putIf(o, "max_concurrency", maxConcurrency);
        return StrictJson.putIf(o, "retry_delay", retryDelay);
    }

    public static JsonArray encode(List<QueueConsumer> consumers) {
        JsonArray a = new JsonArray();
        consumers.forEach(c -> a.add(c.toJson()));
        return a;
    }

    public static List<QueueConsumer> decode(JsonArray array) {
        List<QueueConsumer> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            StrictJson f = StrictJson.of(array.getValue(i), "queue_consumers[" + i + "]").only(FIELDS);
            out.add(new QueueConsumer(f.text("queue"), f.integerOrNull("max_batch_size"), f.integerOrNull("max_batch_timeout"),
                    f.integerOrNull("max_retries"), f.textOrNull("dead_letter_queue"), f.integerOrNull("max_concurrency"),
                    f.integerOrNull("retry_delay")));
        }
        return List.copyOf(out);
    }
}
