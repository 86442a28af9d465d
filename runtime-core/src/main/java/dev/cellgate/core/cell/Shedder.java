package dev.cellgate.core.cell;

import dev.cellgate.core.observe.RuntimeMetrics;
import java.util.Comparator;
import java.util.List;

/**
 * Evicts idle cells, least recently used first. Never a cell with an event in flight (in the
 * host or inside the engine: waitUntil, blockConcurrencyWhile). A cell whose only activity is open
 * hibernatable WebSockets counts as idle, but leaves memory by hibernating (it keeps its
 * ownership and sockets) rather than by a release; shedding under pressure leaves it alone.
 */
final class Shedder {
    private Shedder() {
    }

    /** Starts releasing up to {@code count} idle cells; false when there was none to shed. */
    static boolean shedIdle(Cells cells, int count) {
        if (count <= 0) {
            return true;
        }
        List<Cell> idle = cells.residentCells().stream().filter(c -> c.quiet() && c.sockets.count() == 0)
                .sorted(Comparator.comparingLong(c -> c.lastUsedMs)).limit(count).toList();
        for (Cell c : idle) {
            cells.evictingCounter().incrementAndGet();
            cells.sheddingCounter().incrementAndGet();
            cells.metrics().eviction(RuntimeMetrics.Eviction.SHED);
            cells.release(c.scope, "shed (LRU)").whenComplete((ok, e) -> {
                cells.sheddingCounter().decrementAndGet();
                cells.evictingCounter().decrementAndGet();
            });
        }
        return !idle.isEmpty();
    }

    /** Releases cells idle longer than the configured time. */
    static void evictIdle(Cells cells, long nowMs) {
        long limit = cells.config().idleEvictMs();
        for (Cell c : cells.residentCells()) {
            if (c.quiet() && nowMs - c.lastUsedMs > limit) {
                if (c.sockets.count() > 0) {
                    if (!c.hibernated()) {
                        c.executor.execute(c::hibernate);
                    }
                    continue;
                }
                cells.evictingCounter().incrementAndGet();
                cells.metrics().eviction(RuntimeMetrics.Eviction.IDLE);
                cells.release(c.scope, "idle").whenComplete((ok, e) -> cells.evictingCounter().decrementAndGet());
            }
        }
    }
}
