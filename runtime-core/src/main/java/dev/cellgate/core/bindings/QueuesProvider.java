package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.logic.QueueDelivery;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code queues}: the deployment's queue machinery, a hidden binding ({@link #BINDING_NAME}, never
 * on {@code env}) that the node adds to every deployment with a queue producer or consumer
 * ({@code Deployment.bundle}). Its settings are the manifest's {@code queue_consumers}; its host
 * object ({@link QueuesHost}) answers the queue cells' delivery questions with
 * {@link QueueDelivery}. The consumers are checked when the deployment loads: a bad setting refuses
 * it by name.
 */
public final class QueuesProvider implements BindingProvider {
    public static final String TYPE = "queues";
    /** The name of the hidden binding: dispatch.js keeps {@code $cellgate$…} bindings off env. */
    public static final String BINDING_NAME = "$cellgate$queues";
    /**
     * The test-only switch of the broken variant the fleet test must catch: a queue cell that
     * deletes a batch before its handler has settled ({@code QueuesFleetIT}).
     */
    static final String BROKEN_ENV = "CELLGATE_TEST_BROKEN_QUEUE";
    public static final String BROKEN_DELETE_BEFORE_HANDLER = "delete-before-handler";

    private final String broken;

    public QueuesProvider() {
        this(System.getenv(BROKEN_ENV));
    }

    QueuesProvider(String broken) {
        if (broken != null && !broken.isEmpty() && !broken.equals(BROKEN_DELETE_BEFORE_HANDLER)) {
            throw new IllegalArgumentException(BROKEN_ENV + " must be " + BROKEN_DELETE_BEFORE_HANDLER + " or unset (got " + broken + ")");
        }
        this.broken = broken == null || broken.isEmpty() ? null : broken;
    }

    /** The hidden binding for a deployment whose manifest has these consumers. */
    public static EnvBinding binding(List<QueueConsumer> consumers) {
        return new EnvBinding(BINDING_NAME, TYPE, new JsonObject().put("consumers", QueueConsumer.encode(consumers)));
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        consumers(binding);
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return new QueuesHost(consumers(binding), broken);
    }

    /** The consumers by queue name, each with Cloudflare's defaults applied; a bad one is refused by name. */
    static Map<String, QueueDelivery.Settings> consumers(EnvBinding binding) {
        JsonArray array = binding.settings().getJsonArray("consumers", new JsonArray());
        Map<String, QueueDelivery.Settings> out = new LinkedHashMap<>();
        for (QueueConsumer c : QueueConsumer.decode(array)) {
            QueueDelivery.Settings s;
            try {
                s = QueueDelivery.Settings.of(c.maxBatchSize(), c.maxBatchTimeout(), c.maxRetries(), c.retryDelay(), c.maxConcurrency(),
                        c.deadLetterQueue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the consumer of queue " + c.queue() + ": " + e.getMessage(), e);
            }
            if (c.queue().equals(c.deadLetterQueue())) {
                throw new IllegalArgumentException("the consumer of queue " + c.queue() + " names its own queue as its dead_letter_queue");
            }
            if (out.put(c.queue(), s) != null) {
                throw new IllegalArgumentException("queue " + c.queue() + " has two consumers: a queue has one consumer Worker");
            }
        }
        return out;
    }
}
