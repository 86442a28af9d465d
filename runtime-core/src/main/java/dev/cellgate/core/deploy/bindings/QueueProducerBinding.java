package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code queues.producers[]}: send to a queue ({@code delivery_delay} in seconds; null when unset). */
public record QueueProducerBinding(String name, String queueName, Long deliveryDelay) implements Binding {
    public static final String TYPE = "queue";

    public QueueProducerBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(queueName, "queueName");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return StrictJson.putIf(new JsonObject().put("queue_name", queueName), "delivery_delay", deliveryDelay);
    }

    static QueueProducerBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "queue_name", "delivery_delay"));
        return new QueueProducerBinding(name, f.text("queue_name"), f.integerOrNull("delivery_delay"));
    }
}
