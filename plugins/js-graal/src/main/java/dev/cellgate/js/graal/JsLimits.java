package dev.cellgate.js.graal;

import dev.cellgate.core.logic.WorkerCpuLimit;
import dev.cellgate.core.spi.js.JsEngineConfig;

/**
 * Per-event resource limits, enforced by the turn watchdog.
 *
 * <p>{@code cpuBudgetMs}: CPU time (per-thread CPU clock, summed over every turn the event runs,
 * including its timers, continuations and {@code waitUntil} work) after which the event is
 * interrupted. The engine's is {@code CELLD_CPU_MS}; a deployment with its own
 * {@code limits.cpu_ms} gets {@link #forWorker} of it, which replaces the engine's, above or below.
 * {@code cpuBudgetSetting} names where the budget came from, for the error a stopped event gets.
 *
 * <p>{@code maxEventAllocatedBytes}: bytes an event may allocate in total (the JVM's per-thread
 * allocation counter, summed over its turns) before it is interrupted as an allocation bomb. The
 * community edition of GraalJS has no per-context heap limit, so allocation is the measure we
 * have: it counts garbage too, hence a generous default of a quarter of the maximum heap, capped
 * at 2 GiB, which lets ordinary requests through while stopping a runaway loop long before the
 * heap is exhausted. An instance whose event was stopped this way is replaced by a fresh one,
 * since its globals may still hold the memory.
 *
 * <p>{@code watchdogIntervalMs}: how often running turns are sampled.
 *
 * <p>{@code blockConcurrencyTimeoutMs}: how long a Durable Object's {@code blockConcurrencyWhile}
 * may hold its input gate before the object is reset (Cloudflare: 30 s).
 */
public record JsLimits(long cpuBudgetMs, long maxEventAllocatedBytes, long watchdogIntervalMs, long blockConcurrencyTimeoutMs,
                       String cpuBudgetSetting) {
    public static final long ALLOCATION_CAP = 2L << 30;
    public static final long BLOCK_CONCURRENCY_TIMEOUT_MS = 30_000;
    /** The node setting the engine's budget comes from. */
    public static final String NODE_SETTING = "CELLD_CPU_MS";

    public JsLimits(long cpuBudgetMs, long maxEventAllocatedBytes, long watchdogIntervalMs) {
        this(cpuBudgetMs, maxEventAllocatedBytes, watchdogIntervalMs, BLOCK_CONCURRENCY_TIMEOUT_MS);
    }

    public JsLimits(long cpuBudgetMs, long maxEventAllocatedBytes, long watchdogIntervalMs, long blockConcurrencyTimeoutMs) {
        this(cpuBudgetMs, maxEventAllocatedBytes, watchdogIntervalMs, blockConcurrencyTimeoutMs, NODE_SETTING);
    }

    /**
     * The limits of a deployment's events: its own {@code limits.cpu_ms} when it sets one (the
     * Worker's limit is its limit, as on Cloudflare), else these; every other limit stays the engine's.
     */
    public JsLimits forWorker(Long workerCpuMs) {
        if (workerCpuMs == null) {
            return this;
        }
        return new JsLimits(workerCpuMs, maxEventAllocatedBytes, watchdogIntervalMs, blockConcurrencyTimeoutMs, WorkerCpuLimit.SETTING);
    }

    public JsLimits {
        if (cpuBudgetSetting == null || cpuBudgetSetting.isBlank()) {
            throw new IllegalArgumentException("cpuBudgetSetting must name where the budget comes from");
        }
        if (blockConcurrencyTimeoutMs <= 0) {
            throw new IllegalArgumentException("blockConcurrencyTimeoutMs must be positive, got " + blockConcurrencyTimeoutMs);
        }
        if (cpuBudgetMs <= 0) {
            throw new IllegalArgumentException("cpuBudgetMs must be positive, got " + cpuBudgetMs);
        }
        if (maxEventAllocatedBytes <= 0) {
            throw new IllegalArgumentException("maxEventAllocatedBytes must be positive, got " + maxEventAllocatedBytes);
        }
        if (watchdogIntervalMs <= 0) {
            throw new IllegalArgumentException("watchdogIntervalMs must be positive, got " + watchdogIntervalMs);
        }
    }

    public static JsLimits from(JsEngineConfig config) {
        return new JsLimits(config.cpuBudgetMs(), defaultAllocationLimit(), 10);
    }

    public static long defaultAllocationLimit() {
        return Math.min(ALLOCATION_CAP, Runtime.getRuntime().maxMemory() / 4);
    }
}
