package dev.cellgate.core.time;

/**
 * Elapsed milliseconds from an arbitrary origin that never step: what a node measures its own
 * lease with (SPEC §20). A wall clock stepped back by NTP or an operator cannot lengthen a lease
 * measured on this one. Injected, like {@link Ticker}, so the simulator can drive it.
 */
@FunctionalInterface
public interface Monotonic {
    long elapsedMs();

    /** The same clock in nanoseconds, for latency metrics finer than a millisecond. */
    default long elapsedNanos() {
        return Math.multiplyExact(elapsedMs(), 1_000_000L);
    }

    Monotonic SYSTEM = new Monotonic() {
        @Override
        public long elapsedMs() {
            return System.nanoTime() / 1_000_000L;
        }

        @Override
        public long elapsedNanos() {
            return System.nanoTime();
        }
    };
}
