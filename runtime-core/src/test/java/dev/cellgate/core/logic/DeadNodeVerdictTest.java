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
    /** The old exact rule: a margin of 0 (all clocks agree). */
    static final Liveness EXACT = Liveness.withSkew(0);

    static OwnerLease lease(String node, long expires) {
        return new OwnerLease.Present(new LeaseRecord(node, "s1", "h:1", 1, 0, expires, LeaseRecord.Load.IDLE));
    }

    @Test
    void expiredRecordWhoseBodyNamesTheKeysNodeIsDead() {
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW - 1), NOW, EXACT)).isTrue();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", 0), NOW, EXACT)).as("tombstone").isTrue();
    }

    @Test
    void expiryEqualToNowIsNotYetDead() {
        // strictly before now: the boundary errs towards "alive"
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW), NOW, EXACT)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW + 1), NOW, EXACT)).isFalse();
    }

    @Test
    void mismatchedNamesMissingAndMalformedRecordsAreNeverDead() {
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n2", 0), NOW, EXACT)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1x", 0), NOW, EXACT)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("N1", lease("n1", 0), NOW, EXACT)).as("names are case-sensitive").isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", OwnerLease.MISSING, NOW, EXACT)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", new OwnerLease.Malformed("not json"), NOW, EXACT)).isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead(null, lease("n1", 0), NOW, EXACT)).as("not a lease key").isFalse();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("", lease("", 0), NOW, EXACT)).isFalse();
    }

    @Property
    void deadExactlyWhenNamesMatchAndExpiryIsBeforeNow(@ForAll("nodes") String keyNode, @ForAll("nodes") String bodyNode,
                                                       @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                                       @ForAll @LongRange(min = 0, max = 10_000) long now) {
        boolean dead = DeadNodeVerdict.nodeRecordIsDead(keyNode, lease(bodyNode, expires), now, EXACT);
        assertThat(dead).isEqualTo(keyNode.equals(bodyNode) && (expires == 0 || expires < now));
    }

    @Property
    void onceDeadStaysDeadAsTimePasses(@ForAll("nodes") String node, @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                       @ForAll @LongRange(min = 0, max = 10_000) long now,
                                       @ForAll @LongRange(min = 0, max = 10_000) long later) {
        if (DeadNodeVerdict.nodeRecordIsDead(node, lease(node, expires), now, EXACT)) {
            assertThat(DeadNodeVerdict.nodeRecordIsDead(node, lease(node, expires), now + later, EXACT)).isTrue();
        }
    }

    @Property
    void aMalformedRecordIsNeverDeadAtAnyTime(@ForAll("nodes") String node, @ForAll long now) {
        assertThat(DeadNodeVerdict.nodeRecordIsDead(node, new OwnerLease.Malformed("x"), now, EXACT)).isFalse();
    }

    @Property
    void aDeadRecordIsAlsoNotLiveForOwnershipDecisions(@ForAll("nodes") String node,
                                                      @ForAll @LongRange(min = 0, max = 10_000) long expires,
                                                      @ForAll @LongRange(min = 0, max = 10_000) long now) {
        // GC never retires a lease that acquire would still respect as live.
        OwnerLease l = lease(node, expires);
        if (DeadNodeVerdict.nodeRecordIsDead(node, l, now, EXACT)) {
            assertThat(EXACT.isLive(((OwnerLease.Present) l).lease(), now)).isFalse();
        }
    }

    /**
     * Issue 30 item 3: a GC whose clock runs 8 s ahead on a 10 s TTL. The healthy node renews every
     * TTL/3; between two renewals (plus a slow answer) the GC must never judge its lease dead. With
     * the default margin of 2 s it judges dead only 4 s after a renewal was sent; judged at
     * {@code expires_ms} itself (the old rule) it did after 2 s and retired a live lease.
     */
    @Test
    void aGcWhoseClockRunsEightSecondsAheadNeverRetiresALeaseRenewedOnTime() {
        long ttl = 10_000;
        long ahead = 8_000;
        Liveness configured = Liveness.withSkew(Liveness.defaultSkewMs(ttl));
        long renewedAt = NOW; // true time the renewal was sent, on the healthy node's (correct) clock
        OwnerLease lease = lease("n1", renewedAt + ttl);
        for (long t = renewedAt; t <= renewedAt + ttl / 3 + 500; t += 10) {
            assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease, t + ahead, configured))
                    .as("judged dead %d ms after the renewal by a clock %d ms ahead", t - renewedAt, ahead).isFalse();
        }
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease, renewedAt + 2_001 + ahead, EXACT))
                .as("without the margin the same GC retires the live lease 2 s after its renewal").isTrue();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease, renewedAt + ttl + configured.skewMs() + 1, configured))
                .as("a lease that was not renewed is still retired, with a correct clock, once expiry + margin passed").isTrue();
    }

    @Test
    void theBrokenVariantDropsTheMargin() {
        Liveness broken = Liveness.brokenWithoutMarginForTests(2_000);
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW - 1), NOW, broken)).isTrue();
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease("n1", NOW - 1), NOW, Liveness.withSkew(2_000))).isFalse();
    }

    @Property
    void withAMarginALeaseIsDeadOnlyPastExpiryPlusTheMargin(@ForAll @LongRange(min = 1, max = 10_000) long expires,
                                                          @ForAll @LongRange(min = 0, max = 30_000) long now,
                                                          @ForAll @LongRange(min = 0, max = 3_000) long margin) {
        Liveness l = Liveness.withSkew(margin);
        OwnerLease lease = lease("n1", expires);
        assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease, now, l)).isEqualTo(expires + margin < now);
        if (DeadNodeVerdict.nodeRecordIsDead("n1", lease, now, l)) {
            assertThat(DeadNodeVerdict.nodeRecordIsDead("n1", lease, now, EXACT)).as("a margin only delays the verdict").isTrue();
            assertThat(l.isLive(((OwnerLease.Present) lease).lease(), now)).as("GC never retires what acquire respects").isFalse();
        }
    }

    @Provide
    Arbitrary<String> nodes() {
        return Arbitraries.oneOf(Arbitraries.of("n1", "n2"), LogicArbitraries.nodeIds());
    }
}
