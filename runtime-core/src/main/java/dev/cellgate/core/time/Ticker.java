package dev.cellgate.core.time;

/** Wall-clock milliseconds, injected so a simulator can drive time (and skew it per node). */
@FunctionalInterface
public interface Ticker {
    long nowMs();

    Ticker SYSTEM = System::currentTimeMillis;
}
