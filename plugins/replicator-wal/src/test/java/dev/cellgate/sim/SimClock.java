package dev.cellgate.sim;

import dev.cellgate.core.time.Monotonic;
import dev.cellgate.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's clocks. The WALL clock is true time plus an offset that drifts at a constant rate (a few
 * hundred ppm) and STEPS at given instants, forward or BACKWARD (NTP correcting it, an operator
 * setting it), clamped to {@code ±maxSkew}; with a step back it runs backwards. The MONOTONIC clock
 * is true time: it never steps, which is why a node measures its own lease on it (SPEC §20).
 */
final class SimClock implements Ticker {
    private final EventLoop loop;
    private final long start;
    private final long offset0;
    private final double ratePpm;
    private final long maxSkew;
    /** (at, delta) pairs, in time order: from {@code at} on the offset is {@code delta} larger. */
    private final List<long[]> steps = new ArrayList<>();
    private long resetAt = Long.MAX_VALUE;
    private long resetOffset;

    SimClock(EventLoop loop, long offset0, double ratePpm, long maxSkew) {
        this.loop = loop;
        this.start = loop.now();
        this.offset0 = offset0;
        this.ratePpm = ratePpm;
        this.maxSkew = maxSkew;
    }

    /** The wall clock jumps by {@code deltaMs} (negative: back) at true time {@code at}. */
    SimClock stepAt(long at, long deltaMs) {
        steps.add(new long[] {at, deltaMs});
        steps.sort((a, b) -> Long.compare(a[0], b[0]));
        return this;
    }

    /** From {@code at} on, the wall clock reads true time + {@code offsetMs} (NTP corrected it), drifting on from there. */
    SimClock setAt(long at, long offsetMs) {
        resetAt = at;
        resetOffset = offsetMs;
        stepAt(at, 0); // an instant at which the clock may jump back, for maxOver
        return this;
    }

    long offset() {
        return offsetAt(loop.now());
    }

    long offsetAt(long t) {
        if (t >= resetAt) {
            return Math.max(-maxSkew, Math.min(maxSkew, resetOffset + (long) Math.floor((t - resetAt) * ratePpm / 1e6)));
        }
        long o = offset0 + (long) Math.floor((t - start) * ratePpm / 1e6);
        for (long[] s : steps) {
            if (s[0] <= t) {
                o += s[1];
            }
        }
        return Math.max(-maxSkew, Math.min(maxSkew, o));
    }

    /** The wall clock at true time {@code t}. */
    long at(long t) {
        return t + offsetAt(t);
    }

    /** The highest the wall clock read at any instant of [from, to]: it rises between steps, so the end or just before a step. */
    long maxOver(long from, long to) {
        long max = at(to);
        for (long[] s : steps) {
            if (s[0] > from && s[0] <= to) {
                max = Math.max(max, at(s[0] - 1));
            }
        }
        return Math.max(max, at(from));
    }

    @Override
    public long nowMs() {
        return at(loop.now());
    }

    /** True time: never steps. */
    Monotonic monotonic() {
        return loop::now;
    }
}
