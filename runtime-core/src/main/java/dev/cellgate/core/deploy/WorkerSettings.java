package dev.cellgate.core.deploy;

import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What a manifest says about a Worker besides its code and its env: how its static assets are
 * served (null: it has none), the queues it consumes, its CPU limit per event ({@code limits.cpu_ms},
 * 1..300000, {@link dev.cellgate.core.logic.WorkerCpuLimit}; null: the node's {@code CELLD_CPU_MS}),
 * the Wrangler environment it was pushed for (null: the top level), and the hosting metadata keys of its config (recorded as written; they have no effect on
 * a self-hosted fleet, docs/configuration.md).
 */
public record WorkerSettings(AssetsConfig assets, List<QueueConsumer> queueConsumers, Long cpuMs, String environment,
                             JsonObject hosting) {
    public static final WorkerSettings NONE = new WorkerSettings(null, List.of(), null, null, new JsonObject());

    public WorkerSettings {
        queueConsumers = List.copyOf(queueConsumers);
        hosting = hosting == null ? new JsonObject() : hosting.copy();
        if (cpuMs != null && dev.cellgate.core.logic.WorkerCpuLimit.problem(cpuMs) != null) {
            throw new IllegalArgumentException(dev.cellgate.core.logic.WorkerCpuLimit.problem(cpuMs));
        }
    }
}
