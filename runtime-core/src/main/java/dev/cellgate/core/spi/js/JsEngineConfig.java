package dev.cellgate.core.spi.js;

import dev.cellgate.core.logic.EgressPolicy;
import io.vertx.core.Vertx;

/**
 * Settings the host hands the engine.
 *
 * @param vertx                the node's Vert.x instance (outbound HTTP client, timers)
 * @param cpuBudgetMs          CPU time a single event may use before it is interrupted ({@code CELLD_CPU_MS})
 * @param maxRequestBodyBytes  largest request body the host accepts ({@code CELLD_MAX_REQUEST_BODY_BYTES})
 * @param nodeId               this node's id, for log lines
 * @param egress               where Workers may connect ({@code CELLD_EGRESS_ALLOW}/{@code _DENY}, this node, its peers)
 * @param cacheBytes           memory bound of the node's Cache API store ({@code CELLD_CACHE_MB}; 0 stores nothing)
 * @param bindings             the binding types this host serves beyond vars and Durable Objects
 */
public record JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId, Egress egress, long cacheBytes,
                             BindingRegistry bindings) {
    /** The default of {@code CELLD_CACHE_MB}, in bytes. */
    public static final long DEFAULT_CACHE_BYTES = 64L << 20;

    /**
     * With the default egress refusals, nothing allowed beyond them, the default cache bound and no
     * binding type beyond vars and Durable Objects (tools; tests that make no outbound call).
     */
    public JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId) {
        this(vertx, cpuBudgetMs, maxRequestBodyBytes, nodeId, Egress.of(EgressPolicy.DEFAULT), DEFAULT_CACHE_BYTES, BindingRegistry.NONE);
    }

    public JsEngineConfig {
        if (egress == null) {
            throw new IllegalArgumentException("the engine needs an egress policy (Egress.of(EgressPolicy.DEFAULT) for the defaults)");
        }
        bindings = bindings == null ? BindingRegistry.NONE : bindings;
    }
}
