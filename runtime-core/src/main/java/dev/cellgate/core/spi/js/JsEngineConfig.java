package dev.cellgate.core.spi.js;

import io.vertx.core.Vertx;

/**
 * Settings the host hands the engine.
 *
 * @param vertx                the node's Vert.x instance (outbound HTTP client, timers)
 * @param cpuBudgetMs          CPU time a single event may use before it is interrupted ({@code CELLD_CPU_MS})
 * @param maxRequestBodyBytes  largest request body the host accepts ({@code CELLD_MAX_REQUEST_BODY_BYTES})
 * @param nodeId               this node's id, for log lines
 * @param bindings             the binding types this host serves beyond vars and Durable Objects
 */
public record JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId, BindingRegistry bindings) {
    public JsEngineConfig {
        bindings = bindings == null ? BindingRegistry.NONE : bindings;
    }

    /** A host that serves no binding type beyond vars and Durable Objects. */
    public JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId) {
        this(vertx, cpuBudgetMs, maxRequestBodyBytes, nodeId, BindingRegistry.NONE);
    }
}
