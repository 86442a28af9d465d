package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.QueueProducerBinding;
import dev.cellgate.core.logic.QueueDelivery;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;

/**
 * {@code queue}: a producer binding ({@code queues.producers[]}). The host side only names the
 * queue's cell ({@link QueueCells}); the engine's wrapper ({@code bindings/queue.js} in js-graal)
 * checks and serializes each message and sends it with one RPC call on an ordinary Durable Object
 * stub to that cell, whose answer leaves the owner only once the message is in the bucket.
 * {@link #open} returns the cell scope.
 */
public final class QueueProducerProvider implements BindingProvider {
    @Override
    public String type() {
        return QueueProducerBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        queueName(binding);
        Object delay = binding.settings().getValue("delivery_delay");
        if (delay != null) {
            String p = delay instanceof Number n ? QueueDelivery.delayProblem(n.doubleValue()) : "it is not a number";
            if (p != null) {
                throw new IllegalArgumentException("delivery_delay of the queue binding " + binding.name() + ": "
                        + p.replace("delaySeconds", "delivery_delay"));
            }
        }
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        check(binding);
        return QueueCells.scopeOf(queueName(binding));
    }

    static String queueName(EnvBinding binding) {
        Object v = binding.settings().getValue("queue_name");
        if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("the queue binding " + binding.name() + " needs a queue name (got " + v + ")");
        }
        return s;
    }
}
