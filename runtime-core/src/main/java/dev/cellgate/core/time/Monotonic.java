package dev.cellgate.core.time;

/**
 * Elapsed milliseconds from an arbitrary origin that never step: what a node measures its own
 * lease with (SPEC §20). A wall clock stepped back by NTP or an operator cannot lengthen a lease
 * measured on this one. Injected, like {@link Ticker}, so the simulator can drive it.
 */
@FunctionalInterface
public interface Monotonic {
    long elapsedMs();

    Monotonic SYSTEM = () -> System.nanoTime() / 1_000_000L;
}
