package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AcquireDecisionTest {
    static final long NOW = 1_000_000;

    static OwnerLease lease(String node, String session, long expires) {
        return new OwnerLease.Present(new LeaseRecord(node, session, "h:1", 1, 0, expires, LeaseRecord.Load.IDLE));
    }

    static AcquireDecision decide(OwnershipRecord own, OwnerLease ownerLease) {
        return AcquireDecision.decide(Optional.ofNullable(own), ownerLease, "me", "s-now", NOW, Liveness.withSkew(0));
    }

    @Test
    void absentRecordIsCreatedAtEpochOne() {
        assertThat(decide(null, OwnerLease.MISSING)).isInstanceOf(AcquireDecision.Create.class);
    }

    @Test
    void releasedAndOwnCellsMoveToTheNextEpoch() {
        assertThat(decide(OwnershipRecord.released(4), OwnerLease.MISSING)).isEqualTo(new AcquireDecision.TakeOver(5, "released"));
        assertThat(decide(new OwnershipRecord("me", "s-now", 2), OwnerLease.MISSING))
                .isEqualTo(new AcquireDecision.TakeOver(3, "re-activation"));
        assertThat(decide(new OwnershipRecord("me", "s-old", 2), OwnerLease.MISSING))
                .isEqualTo(new AcquireDecision.TakeOver(3, "own earlier process"));
    }

    @Test
    void liveOtherOwnerIsForwardedTo() {
        assertThat(decide(new OwnershipRecord("n2", "s2", 9), lease("n2", "s2", NOW + 1)))
                .isEqualTo(new AcquireDecision.Forward("n2"));
    }

    @Test
    void deadOwnerIsTakenOver() {
        OwnershipRecord own = new OwnershipRecord("n2", "s2", 9);
        assertThat(decide(own, OwnerLease.MISSING)).isInstanceOf(AcquireDecision.TakeOver.class);
        assertThat(decide(own, lease("n2", "s2", NOW))).as("expiry equal to now is expired")
                .isEqualTo(new AcquireDecision.TakeOver(10, "owner n2 is dead"));
        assertThat(decide(own, lease("n2", "s2", 0))).as("tombstone").isInstanceOf(AcquireDecision.TakeOver.class);
        assertThat(decide(own, lease("n2", "s3", NOW + 5000))).as("restarted with another session")
                .isInstanceOf(AcquireDecision.TakeOver.class);
    }

    @Test
    void malformedOrMismatchedLeaseIsNeverProofOfDeath() {
        OwnershipRecord own = new OwnershipRecord("n2", "s2", 9);
        assertThat(decide(own, new OwnerLease.Malformed("bad json"))).isInstanceOf(AcquireDecision.Unavailable.class);
        assertThat(decide(own, lease("other-name", "s2", 0))).as("body names another node")
                .isEqualTo(new AcquireDecision.Forward("n2"));
    }

    @Test
    void ownerLeaseIsOnlyNeededForAnotherRecordedNode() {
        assertThat(AcquireDecision.needsOwnerLease(Optional.empty(), "me")).isFalse();
        assertThat(AcquireDecision.needsOwnerLease(Optional.of(OwnershipRecord.released(1)), "me")).isFalse();
        assertThat(AcquireDecision.needsOwnerLease(Optional.of(new OwnershipRecord("me", "x", 1)), "me")).isFalse();
        assertThat(AcquireDecision.needsOwnerLease(Optional.of(new OwnershipRecord("n2", "x", 1)), "me")).isTrue();
    }

    @Test
    void anOwnerIsTakenOverOnlyPastItsExpiryPlusTheMargin() {
        OwnershipRecord own = new OwnershipRecord("n2", "s2", 9);
        Liveness l = Liveness.withSkew(2_000);
        assertThat(AcquireDecision.decide(Optional.of(own), lease("n2", "s2", NOW - 1_999), "me", "s-now", NOW, l))
                .as("expired by our clock, but within the margin: forwarded").isEqualTo(new AcquireDecision.Forward("n2"));
        assertThat(AcquireDecision.decide(Optional.of(own), lease("n2", "s2", NOW - 2_000), "me", "s-now", NOW, l))
                .isEqualTo(new AcquireDecision.TakeOver(10, "owner n2 is dead"));
        assertThat(AcquireDecision.decide(Optional.of(own), lease("n2", "s2", NOW - 1), "me", "s-now", NOW,
                Liveness.brokenWithoutMarginForTests(2_000))).as("the broken variant").isInstanceOf(AcquireDecision.TakeOver.class);
    }
}
