package dev.cellgate.core.observe;

/**
 * What runtime-core reports for metrics. The gateway implements it (Micrometer, Prometheus); the
 * core only calls it, so runtime-core and the plugins need no metrics library. Every method is
 * called on a hot path (an event, a commit, a stub call): implementations must not block and
 * should not allocate per call. Durations are in nanoseconds.
 */
public interface RuntimeMetrics {
    /** Reports nothing: the default until a node installs its metrics. */
    RuntimeMetrics NOOP = new RuntimeMetrics() {
    };

    /** How an activation attempt ended. */
    enum Activation {
        /** The cell is resident here. */
        ACTIVATED,
        /** A live other node owns it: the call is forwarded there. */
        OWNED_ELSEWHERE,
        /** Refused or failed (node full, restore failure, constructor threw, bucket error). */
        FAILED
    }

    /** Why a resident cell was released by the sweeper. */
    enum Eviction {
        /** Idle longer than the idle-eviction time. */
        IDLE,
        /** Shed under pressure (resident limit or memory), least recently used first. */
        SHED
    }

    /** An activation attempt (acquire, restore or local reuse, construct) ended. */
    default void activation(Activation outcome, long nanos) {
    }

    /** A restore from the bucket ended ({@code bytes} downloaded, 0 on failure). */
    default void restore(boolean ok, long nanos, long bytes) {
    }

    /** A release (flush, ownership CAS to {@code node:""}) ended. */
    default void release(boolean released, long nanos) {
    }

    /** The sweeper started releasing a cell. */
    default void eviction(Eviction why) {
    }

    /** A cell result waited this long for the output gate (0 when nothing it followed was pending). */
    default void outputGateWait(long nanos) {
    }

    /** A local commit became durable in the bucket (or failed to): the replication lag of that commit. */
    default void commitDurable(boolean ok, long nanos) {
    }

    /**
     * A stub call (fetch or RPC) from this node to a cell ended: served by a cell here, or forwarded
     * to the owner's node. {@code ok} is false when the call failed (the caller saw an exception).
     */
    default void cellCall(boolean forwarded, boolean ok, long nanos) {
    }
}
