package dev.cellgate.core.sim;

import dev.cellgate.core.time.Ticker;

/**
 * A node's wall clock: true time plus an offset that drifts at a constant rate, clamped to
 * {@code ±maxSkew}. The rate is at most a few hundred ppm, so the clock never runs backwards.
 */
final class SimClock implements Ticker {
    private final EventLoop loop;
    private final long start;
    private final long offset0;
    private final double ratePpm;
    private final long maxSkew;

    SimClock(EventLoop loop, long offset0, double ratePpm, long maxSkew) {
        this.loop = loop;
        this.start = loop.now();
        this.offset0 = offset0;
        this.ratePpm = ratePpm;
        this.maxSkew = maxSkew;
    }

    long offset() {
        long drift = (long) Math.floor((loop.now() - start) * ratePpm / 1e6);
        return Math.max(-maxSkew, Math.min(maxSkew, offset0 + drift));
    }

    @Override
    public long nowMs() {
        return loop.now() + offset();
    }
}
