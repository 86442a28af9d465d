package dev.cellgate.js.graal.support;

import dev.cellgate.core.bindings.QueuesProvider;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.spi.js.EnvBinding;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code queueProducers} / {@code queueConsumers} of cases.json, in miniflare's shape, as the node
 * gives them to a deployment: a {@code queue} binding per producer and, with any queue, the hidden
 * {@code $cellgate$queues} binding that carries the consumers ({@code Deployment.bundle} does the same).
 */
final class QueueBindings {
    private QueueBindings() {
    }

    static List<EnvBinding> of(JsonObject spec) {
        List<EnvBinding> out = new ArrayList<>();
        JsonObject producers = spec.getJsonObject("queueProducers", new JsonObject());
        producers.forEach(e -> {
            JsonObject p = (JsonObject) e.getValue();
            JsonObject settings = new JsonObject().put("queue_name", p.getString("queueName"));
            if (p.containsKey("deliveryDelay")) {
                settings.put("delivery_delay", p.getLong("deliveryDelay"));
            }
            out.add(new EnvBinding(e.getKey(), "queue", settings));
        });
        JsonObject consumers = spec.getJsonObject("queueConsumers", new JsonObject());
        List<QueueConsumer> list = new ArrayList<>();
        consumers.forEach(e -> {
            JsonObject c = (JsonObject) e.getValue();
            list.add(new QueueConsumer(e.getKey(), c.getLong("maxBatchSize"), c.getLong("maxBatchTimeout"), c.getLong("maxRetries"),
                    c.getString("deadLetterQueue"), c.getLong("maxConcurrency"), c.getLong("retryDelay")));
        });
        if (!producers.isEmpty() || !list.isEmpty()) {
            out.add(QueuesProvider.binding(list));
        }
        return out;
    }
}
