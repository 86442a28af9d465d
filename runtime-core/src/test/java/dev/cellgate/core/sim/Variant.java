package dev.cellgate.core.sim;

/** The protocol as built, and deliberately broken versions the properties must catch. */
enum Variant {
    CORRECT,
    /** Takes a cell over without reading the owner's lease (OwnershipStore sees every lease as missing). */
    TAKEOVER_WITHOUT_LEASE_CHECK,
    /** Acknowledges a write as soon as it is applied locally, before its upload and the ownership confirm. */
    ACK_BEFORE_DURABLE,
    /** Dead-node GC deletes a lease it judged dead without the tombstone CAS. */
    GC_WITHOUT_TOMBSTONE,
    /** A release writes {@code node:""} at epoch 1 instead of keeping the epoch. */
    RELEASE_FORGETS_EPOCH,
    /**
     * Lease liveness without the clock-skew margin ({@code Liveness.brokenWithoutMarginForTests}): peers judge
     * a lease dead at {@code expires_ms} and a holder serves to its full TTL, as if every clock agreed.
     */
    LIVENESS_WITHOUT_MARGIN,
    /** No node runs the waker: shows that the alarm property depends on it (alarms of inactive cells). */
    NO_WAKER
}
