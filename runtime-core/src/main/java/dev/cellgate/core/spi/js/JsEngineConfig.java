package dev.cellgate.core.spi.js;

import io.vertx.core.Vertx;

/**
 * Settings the host hands the engine.
 *
 * @param vertx                the node's Vert.x instance (outbound HTTP client, timers)
 * @param cpuBudgetMs          CPU time a single event may use before it is interrupted ({@code CELLD_CPU_MS})
 * @param maxRequestBodyBytes  largest request body the host accepts ({@code CELLD_MAX_REQUEST_BODY_BYTES})
 * @param nodeId               this node's id, for log lines
 * @param cacheBytes           memory bound of the node's Cache API store ({@code CELLD_CACHE_MB}; 0 stores nothing)
 */
public record JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId, long cacheBytes) {
    /** The default of {@code CELLD_CACHE_MB}, in bytes. */
    public static final long DEFAULT_CACHE_BYTES = 64L << 20;

    /** With the default cache bound (tests, tools). */
    public JsEngineConfig(Vertx vertx, long cpuBudgetMs, long maxRequestBodyBytes, String nodeId) {
        this(vertx, cpuBudgetMs, maxRequestBodyBytes, nodeId, DEFAULT_CACHE_BYTES);
    }
}
