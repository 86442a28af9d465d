package dev.cellgate.gateway.node;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a node's start went (issue 22): named spans and moments, given as epoch milliseconds by
 * the caller (no clock here), reported as one set of fields for the {@code node.startup} log line.
 * A span is reported as {@code <name>_ms} (its duration); a moment as {@code <name>_at_ms} (its
 * distance from the origin, the first instant the timeline knows of: the launcher's JVM start when
 * the node was relaunched for the JIT, else this JVM's). Spans may overlap (the first deployment
 * loads while the listeners bind): each is its own duration, not a share of a total.
 */
public final class StartupTimeline {
    private final long originMs;
    private final Map<String, Long> fields = new LinkedHashMap<>();

    /** @param originMs the moment the start began (e.g. the JVM start time) */
    public StartupTimeline(long originMs) {
        this.originMs = originMs;
    }

    public long originMs() {
        return originMs;
    }

    /**
     * Records span {@code name} from {@code startMs} to {@code endMs} (a clock that stepped back
     * counts 0) and returns {@code endMs}, so consecutive phases chain:
     * {@code t = timeline.span("plugins", t, now())}. A span recorded again keeps its first value.
     */
    public synchronized long span(String name, long startMs, long endMs) {
        fields.putIfAbsent(name + "_ms", Math.max(0, endMs - startMs));
        return endMs;
    }

    /** Records moment {@code name} at {@code atMs}; the first record of a name wins. */
    public synchronized void moment(String name, long atMs) {
        fields.putIfAbsent(name + "_at_ms", Math.max(0, atMs - originMs));
    }

    /** Whether span or moment {@code name} has been recorded. */
    public synchronized boolean has(String name) {
        return fields.containsKey(name + "_ms") || fields.containsKey(name + "_at_ms");
    }

    /** Every span and moment recorded, in the order recorded. */
    public synchronized Map<String, Long> fields() {
        return new LinkedHashMap<>(fields);
    }
}
