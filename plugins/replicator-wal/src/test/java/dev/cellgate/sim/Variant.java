package dev.cellgate.sim;

import dev.cellgate.core.fleet.OwnershipStore;

/**
 * The protocol as built, and deliberately broken versions the properties must catch. Each broken
 * variant but {@link #NO_WAKER} switches off one safeguard INSIDE a real class (its
 * {@code brokenForTests} factory, broken constant or disabled mode), so the production code runs with only that
 * one safeguard missing.
 */
enum Variant {
    CORRECT,
    /** {@code OwnershipStore.Broken.TAKEOVER_WITHOUT_LEASE_CHECK}: a takeover never reads the owner's lease. */
    TAKEOVER_WITHOUT_LEASE_CHECK,
    /** {@code OwnershipStore.Broken.CONFIRM_SKIPPED}: the output gate's ownership check after each upload always says yes. */
    CONFIRM_SKIPPED,
    /** {@code OwnershipStore.Broken.RELEASE_WITHOUT_EPOCH}: a release writes {@code node:""} at epoch 1. */
    RELEASE_WITHOUT_EPOCH,
    /** {@code DeadNodeGc.brokenWithoutTombstoneForTests}: the GC deletes a lease it judged dead without the tombstone CAS. */
    GC_WITHOUT_TOMBSTONE,
    /** {@code WakeEntryVerdict.NEVER_DELETES}: neither the woken cell's host nor the waker ever deletes a stale wake entry. */
    WAKE_ENTRY_NEVER_DELETED,
    /** {@code UploadPipeline.brokenAckBeforeDurableForTests}: a commit counts as durable at once, before its upload and confirm. */
    ACK_BEFORE_DURABLE,
    /**
     * {@code PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA}: once the store lost a cell's newest pin, a
     * restore follows the older lineage instead of refusing, hiding the unpinned epoch's writes.
     */
    RESTORE_ACCEPTS_MISSING_PIN,
    /** {@code ForwardFailure.Policy.RESEND_AFTER_DELIVERY}: the router re-sends a call whose forward failed after it was sent. */
    REROUTE_AFTER_DELIVERY,
    /**
     * {@code Liveness.brokenWithoutMarginForTests}: peers judge a lease dead at {@code expires_ms} and a
     * holder serves to its full TTL, as if every clock agreed.
     */
    LIVENESS_WITHOUT_MARGIN,
    /** No node runs the waker: shows that the alarm property depends on it (alarms of inactive cells). */
    NO_WAKER;

    /** The safeguard of {@code OwnershipStore} this variant removes, or null. */
    OwnershipStore.Broken ownership() {
        return switch (this) {
            case TAKEOVER_WITHOUT_LEASE_CHECK -> OwnershipStore.Broken.TAKEOVER_WITHOUT_LEASE_CHECK;
            case CONFIRM_SKIPPED -> OwnershipStore.Broken.CONFIRM_SKIPPED;
            case RELEASE_WITHOUT_EPOCH -> OwnershipStore.Broken.RELEASE_WITHOUT_EPOCH;
            default -> null;
        };
    }
}
