package dev.cellgate.js.graal.host.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node cache's memory bound (README, "Cache API"): whatever is put, the store never holds more
 * than its bound, evicts least recently used entries first, and refuses an entry over an eighth of
 * it. The same load on a store built with {@link NodeCache.Bound#OFF_FOR_NEGATIVE_CONTROL} must be
 * seen over the bound, so the check can fail.
 */
class NodeCacheTest {
    static final long BOUND = 64 * 1024;

    static NodeCache.Entry entry(int size, long expires) {
        return new NodeCache.Entry(200, List.of(Map.entry("content-type", "text/plain")), new byte[size], expires);
    }

    static long fill(NodeCache c) {
        long peak = 0;
        for (int i = 0; i < 500; i++) {
            c.put("k" + i, entry(1000 + (i % 7) * 300, Long.MAX_VALUE));
            peak = Math.max(peak, c.bytes());
        }
        return peak;
    }

    @Test
    void neverHoldsMoreThanItsBound() {
        NodeCache c = new NodeCache(BOUND);
        assertThat(fill(c)).isLessThanOrEqualTo(BOUND);
        assertThat(c.size()).isBetween(20, 64);
    }

    @Test
    void theNegativeControlIsSeenOverTheBound() {
        NodeCache broken = new NodeCache(BOUND, NodeCache.Bound.OFF_FOR_NEGATIVE_CONTROL);
        assertThat(fill(broken)).isGreaterThan(BOUND);
    }

    @Test
    void evictsTheLeastRecentlyUsedFirst() {
        NodeCache c = new NodeCache(BOUND);
        c.put("old", entry(4000, Long.MAX_VALUE));
        c.put("used", entry(4000, Long.MAX_VALUE));
        for (int i = 0; i < 30; i++) {
            assertThat(c.get("used", 0)).isNotNull(); // touched before each put: stays recent
            c.put("k" + i, entry(4000, Long.MAX_VALUE));
        }
        assertThat(c.get("old", 0)).isNull();
        assertThat(c.get("used", 0)).isNotNull();
    }

    @Test
    void refusesAnEntryOverAnEighthAndDropsExpiredOnes() {
        NodeCache c = new NodeCache(BOUND);
        assertThat(c.put("big", entry((int) (BOUND / 8), Long.MAX_VALUE))).isFalse();
        assertThat(c.bytes()).isZero();
        c.put("soon", entry(10, 1000));
        assertThat(c.get("soon", 999)).isNotNull();
        assertThat(c.get("soon", 1000)).isNull();
        assertThat(c.bytes()).isZero();
        c.put("gone", entry(10, 1000));
        assertThat(c.delete("gone", 2000)).isFalse();
    }
}
