package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import dev.cellgate.core.logic.QueueDelivery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code queues}: {@code producers[] {binding, queue, delivery_delay}} become {@code queue}
 * bindings; {@code consumers[] {queue, max_batch_size, max_batch_timeout, max_retries, retry_delay,
 * dead_letter_queue, max_concurrency}} become the manifest's {@code queue_consumers} (docs/queues.md).
 * Values are checked against Cloudflare's limits ({@link QueueDelivery}); {@code max_concurrency}
 * above 1 is refused (a queue runs one batch at a time), and so are pull consumers
 * ({@code type: "http_pull"}, {@code visibility_timeout_ms}) and every other sub-key, by name.
 */
final class QueuesKey {
    private static final Set<String> PRODUCER = Set.of("binding", "queue", "delivery_delay");
    private static final Set<String> CONSUMER = Set.of("queue", "type", "max_batch_size", "max_batch_timeout", "max_retries",
            "retry_delay", "dead_letter_queue", "max_concurrency");

    record Parsed(List<QueueProducerBinding> producers, List<QueueConsumer> consumers) {
        static final Parsed NONE = new Parsed(List.of(), List.of());
    }

    private QueuesKey() {
    }

    static Parsed parse(Object value, Problems problems) {
        if (value == null) {
            return Parsed.NONE;
        }
        if (!(value instanceof JsonObject o)) {
            throw new IllegalArgumentException("\"queues\" must be an object ({\"producers\": [...], \"consumers\": [...]})");
        }
        for (String k : o.fieldNames()) {
            if (!k.equals("producers") && !k.equals("consumers")) {
                problems.refuse("key \"queues." + k + "\" is not supported by cellgate (Wrangler's queues has producers and consumers)");
            }
        }
        List<QueueProducerBinding> producers = new ArrayList<>();
        for (JsonObject p : entries(o, "producers", PRODUCER, problems)) {
            String binding = text(p, "binding", "producers");
            String queue = text(p, "queue", "producers");
            Long delay = number(p, "delivery_delay", "producers");
            if (delay != null && QueueDelivery.delayProblem(delay) != null) {
                problems.refuse("queues.producers " + binding + ": " + QueueDelivery.delayProblem(delay).replace("delaySeconds", "delivery_delay"));
                continue;
            }
            producers.add(new QueueProducerBinding(binding, queue, delay));
        }
        List<QueueConsumer> consumers = new ArrayList<>();
        Set<String> consumed = new TreeSet<>();
        for (JsonObject c : entries(o, "consumers", CONSUMER, problems)) {
            String queue = text(c, "queue", "consumers");
            Object type = c.getValue("type");
            if (type != null && !"worker".equals(type)) {
                problems.refuse("queues.consumers " + queue + ": type " + type + " is not supported by cellgate: "
                        + "pull consumers need Cloudflare's HTTP pull API; a consumer here is the Worker's queue() handler (type \"worker\")");
                continue;
            }
            QueueConsumer consumer = new QueueConsumer(queue, number(c, "max_batch_size", queue), number(c, "max_batch_timeout", queue),
                    number(c, "max_retries", queue), c.getValue("dead_letter_queue") == null ? null : text(c, "dead_letter_queue", queue),
                    number(c, "max_concurrency", queue), number(c, "retry_delay", queue));
            try {
                QueueDelivery.Settings.of(consumer.maxBatchSize(), consumer.maxBatchTimeout(), consumer.maxRetries(), consumer.retryDelay(),
                        consumer.maxConcurrency(), consumer.deadLetterQueue());
            } catch (IllegalArgumentException e) {
                problems.refuse("queues.consumers " + queue + ": " + e.getMessage());
                continue;
            }
            if (queue.equals(consumer.deadLetterQueue())) {
                problems.refuse("queues.consumers " + queue + ": dead_letter_queue names the queue itself");
                continue;
            }
            if (!consumed.add(queue)) {
                problems.refuse("queues.consumers: queue " + queue + " is consumed twice (a queue has one consumer)");
                continue;
            }
            consumers.add(consumer);
        }
        return new Parsed(List.copyOf(producers), List.copyOf(consumers));
    }

    private static List<JsonObject> entries(JsonObject o, String key, Set<String> fields, Problems problems) {
        Object v = o.getValue(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof JsonArray a)) {
            throw new IllegalArgumentException("\"queues." + key + "\" must be an array");
        }
        List<JsonObject> out = new ArrayList<>();
        for (Object e : a) {
            if (!(e instanceof JsonObject b)) {
                throw new IllegalArgumentException("each of \"queues." + key + "\" must be an object");
            }
            boolean ok = true;
            for (String f : b.fieldNames()) {
                if (!fields.contains(f)) {
                    ok = false;
                    problems.refuse("key \"queues." + key + "[]." + f + "\" is not supported by cellgate"
                            + (f.equals("visibility_timeout_ms") ? ": it is for pull consumers, which need Cloudflare's HTTP pull API"
                            : " (" + String.join(", ", new TreeSet<>(fields)) + ")"));
                }
            }
            if (ok) {
                out.add(b);
            }
        }
        return out;
    }

    private static String text(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("queues." + where + ": \"" + key + "\" must be a non-empty string (got " + v + ")");
        }
        return s;
    }

    private static Long number(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new IllegalArgumentException("queues.consumers " + where + ": \"" + key + "\" must be a whole number (got " + v + ")");
        }
        return n.longValue();
    }
}
