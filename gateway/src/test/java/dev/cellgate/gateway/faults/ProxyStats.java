package dev.cellgate.gateway.faults;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one proxy saw and did: requests per wall-clock second (every request that arrived,
 * whatever was done with it: the bucket's view of the node's request rate), actions taken, and
 * the ambiguous outcomes it injected, split by whether the write had been applied.
 */
public final class ProxyStats {
    private final ConcurrentSkipListMap<Long, AtomicLong> perSecond = new ConcurrentSkipListMap<>();
    private final Map<FaultPlan.Action, AtomicLong> actions = new EnumMap<>(FaultPlan.Action.class);
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final java.util.Set<String> seen = ConcurrentHashMap.newKeySet();

    ProxyStats() {
        for (FaultPlan.Action a : FaultPlan.Action.values()) {
            actions.put(a, new AtomicLong());
        }
    }

    void arrived(long nowMs) {
        perSecond.computeIfAbsent(nowMs / 1000, s -> new AtomicLong()).incrementAndGet();
    }

    void acted(S3Call call, FaultPlan.Action action) {
        actions.get(action).incrementAndGet();
        if (call.isWrite() && action == FaultPlan.Action.RESET) {
            bump("ambiguous_writes_not_applied");
        }
        if (call.isWrite() && action == FaultPlan.Action.BLACKHOLE) {
            bump("writes_dropped_by_cut_off");
        }
    }

    /** A response the proxy withheld after the bucket answered {@code status}. */
    void withheld(S3Call call, int status) {
        if (call.isWrite() && status / 100 == 2) {
            bump("ambiguous_writes_applied");
        } else if (call.isWrite()) {
            bump("ambiguous_writes_rejected_upstream");
        } else {
            bump("reads_answer_dropped");
        }
    }

    void forwarded(int status) {
        bump("upstream_" + status / 100 + "xx");
    }

    void upstreamFailed() {
        bump("upstream_failures");
    }

    /**
     * A request exactly like one already seen (method, key, query, conditions, body): the client
     * sent it again, a retry. Requests whose bodies differ are different operations.
     */
    void sent(S3Call call, byte[] body) {
        if (!seen.add(call + " " + call.conditional() + " " + java.util.Arrays.hashCode(body) + " " + body.length)) {
            bump("repeated_requests");
        }
    }

    private void bump(String name) {
        counters.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }

    public long count(FaultPlan.Action action) {
        return actions.get(action).get();
    }

    public long counter(String name) {
        AtomicLong c = counters.get(name);
        return c == null ? 0 : c.get();
    }

    /** Write answers withheld after the bucket applied the write. */
    public long ambiguousApplied() {
        return counter("ambiguous_writes_applied");
    }

    /** Requests that arrived in each whole second of [fromMs, toMs). */
    public long[] perSecond(long fromMs, long toMs) {
        long first = fromMs / 1000;
        long last = toMs / 1000;
        long[] out = new long[(int) Math.max(0, last - first)];
        for (int i = 0; i < out.length; i++) {
            AtomicLong c = perSecond.get(first + i);
            out[i] = c == null ? 0 : c.get();
        }
        return out;
    }

    public long total() {
        return perSecond.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** All counts, for an evidence record. */
    public Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", total());
        actions.forEach((a, c) -> m.put(a.name().toLowerCase(java.util.Locale.ROOT), c.get()));
        new java.util.TreeMap<>(counters).forEach((k, v) -> m.put(k, v.get()));
        return m;
    }
}
