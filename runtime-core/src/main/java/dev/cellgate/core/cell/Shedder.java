package dev.cellgate.core.cell;

import dev.cellgate.core.logic.Shedding;
import dev.cellgate.core.observe.RuntimeMetrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Releases the cells {@link Shedding} picks: idle ones under pressure, least recently used first,
 * and those idle past {@code CELLD_IDLE_EVICT_MS} (or hibernates them when they keep open sockets).
 * The choices are {@link Shedding}'s; this class counts and releases.
 */
final class Shedder {
    private Shedder() {
    }

    /** Starts releasing up to {@code count} idle cells; false when there was none to shed. */
    static boolean shedIdle(Cells cells, int count) {
        Map<String, Cell> byScope = new HashMap<>();
        for (Cell c : cells.residentCells()) {
            byScope.put(c.scope, c);
        }
        List<String> victims = Shedding.victims(byScope.values().stream().map(Shedder::resident).toList(), count);
        for (String scope : victims) {
            cells.evictingCounter().incrementAndGet();
            cells.sheddingCounter().incrementAndGet();
            cells.metrics().eviction(RuntimeMetrics.Eviction.SHED);
            cells.release(scope, "shed (LRU)").whenComplete((ok, e) -> {
                cells.sheddingCounter().decrementAndGet();
                cells.evictingCounter().decrementAndGet();
            });
        }
        return !victims.isEmpty();
    }

    /** Releases cells idle longer than the configured time; hibernates those with open sockets instead. */
    static void evictIdle(Cells cells, long nowMs) {
        long limit = cells.config().idleEvictMs();
        for (Cell c : cells.residentCells()) {
            switch (Shedding.idleAction(resident(c), nowMs - c.lastUsedMs, limit, c.hibernated())) {
                case KEEP -> { }
                case HIBERNATE -> c.executor.execute(c::hibernate);
                case RELEASE -> {
                    cells.evictingCounter().incrementAndGet();
                    cells.metrics().eviction(RuntimeMetrics.Eviction.IDLE);
                    cells.release(c.scope, "idle").whenComplete((ok, e) -> cells.evictingCounter().decrementAndGet());
                }
            }
        }
    }

    private static Shedding.Resident resident(Cell c) {
        return new Shedding.Resident(c.scope, c.lastUsedMs, c.quiet(), c.sockets.count());
    }
}
