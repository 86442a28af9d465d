package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class DeadNodeVerdictTest {
    static final long NOW = 1_700_000_000_000L;

    static OwnerLease lease(String node, long expires) {
        return new OwnerLease.Present(new LeaseRecord(node, "s1", "h:1", 1, 0, expires, LeaseRecord.Load.IDLE));
    }

    @Test
    void expiredRecordWhoseBodyNamesTheKeysNodeIsDead() {
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW - 1), NOW)).isTrue();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", 0), NOW)).as("tombstone").isTrue();
    }

    @Test
    void expiryEqualToNowIsNotYetDead() {
        // strictly before now: the boundary errs towards "alive"
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW), NOW)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW + 1), NOW)).isFalse();
    }

    @Test
    void mismatchedNamesMissingAndMalformedRecordsAreNeverDead() {
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n2", 0), NOW)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1x", 0), NOW)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("N1", lease("n1", 0), NOW)).as("names are case-sensitive").isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", OwnerLease.MISSING, NOW)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", new OwnerLease.Malformed("not json"), NOW)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead(null, lease("n1", 0), NOW)).as("not a lease key").isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("", lease("", 0), NOW)).isFalse();
    }

    @Property
    void deadExactlyWhenNamesMatchAndExpiryIsBeforeNow(@ForAll("nodes") String keyNode, @ForAll("nodes") String bodyNode,
                                                       @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                                       @ForAll @LongRange(min = 0, max = 10_000) long now) {
        boolean dead = DeadNodeVerdict.nodeRecordIsDead(keyNode, lease(bodyNode, expires), now);
        assertThat(dead).isEqualTo(keyNode.equals(bodyNode) && expires < now);
    }

    @Property
    void onceDeadStaysDeadAsTimePasses(@ForAll("nodes") String node, @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                       @ForAll @LongRange(min = 0, max = 10_000) long now,
                                       @ForAll @LongRange(min = 0, max = 10_000) long later) {
        if (DeadNodeVerdict.nodeRecordIsDead(node, lease(node, expires), now)) {
            assertThat(DeadNodeVerdict.nodeRecordIsDead(node, lease(node, expires), now + later)).isTrue();
        }
    }

    @Property
    void aMalformedRecordIsNeverDeadAtAnyTime(@ForAll("nodes") String node, @ForAll long now) {
        assertThat(DeadNodeVerdict.nodeRecordIsDead(node, new OwnerLease.Malformed("x"), now)).isFalse();
    }

    @Property
    void aDeadRecordIsAlsoNotLiveForOwnershipDecisions(@ForAll("nodes") String node,
                                                      @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                                      @ForAll @LongRange(min = 0, max = 10_000) long now) {
        // GC never retires a lease that acquire would still respect as live.
        OwnerLease l = lease(node, expires);
        if (DeadNodeVerdict.nodeRecordIsDead(node, l, now)) {
            assertThat(Liveness.isLive(((OwnerLease.Present) l).lease(), now)).isFalse();
        }
    }

    @Provide
    Arbitrary<String> nodes() {
        return Arbitraries.oneOf(Arbitraries.of("n1", "n2"), LogicArbitraries.nodeIds());
    }
}
