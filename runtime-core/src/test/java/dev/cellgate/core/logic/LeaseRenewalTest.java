package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.LeaseRenewal.FenceKind;
import dev.cellgate.core.logic.LeaseRenewal.Step;
import dev.cellgate.core.records.LeaseRecord;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The own-lease machine (SPEC §20): validity on the monotonic clock, adopt, hedge, retry, fence. */
class LeaseRenewalTest {
    static final long TTL = 10_000;
    static final long MARGIN = 2_000;
    static final long WALL = 1_700_000_000_000L;

    LeaseRenewal machine() {
        LeaseRenewal m = new LeaseRenewal("nodes/n1.json", TTL, Liveness.withSkew(MARGIN));
        assertThat(m.started(0, 20, WALL + TTL)).isTrue();
        return m;
    }

    static OwnerLease ours(long expires) {
        return new OwnerLease.Present(new LeaseRecord("n1", "s1", "h:1", 1, 0, expires, LeaseRecord.Load.IDLE));
    }

    @Test
    void aNodeServesUntilTheSendOfItsLastLandedRenewalPlusTtlMinusTheMargin() {
        LeaseRenewal m = machine();
        assertThat(m.canServe(TTL - MARGIN - 1)).isTrue();
        assertThat(m.canServe(TTL - MARGIN)).as("reads included: nothing is served past own validity").isFalse();
        Step s = m.attempt(3_000, WALL + 3_000);
        assertThat(s).isEqualTo(new Step.Send(0, WALL + 3_000 + TTL));
        assertThat(m.written(0, 3_000, 3_050, WALL + 3_000 + TTL)).isInstanceOf(Step.Adopted.class);
        assertThat(m.canServe(3_000 + TTL - MARGIN - 1)).isTrue();
        assertThat(m.canServe(3_000 + TTL - MARGIN)).isFalse();
    }

    @Test
    void aWallClockSteppedBackExtendsNothingAndThePublishedExpiryNeverMovesBack() {
        LeaseRenewal m = machine();
        // the wall clock jumped back an hour before the renewal
        Step s = m.attempt(3_000, WALL + 3_000 - 3_600_000);
        assertThat(s).isEqualTo(new Step.Send(0, WALL + TTL));
        m.written(0, 3_000, 3_050, ((Step.Send) s).expiresMs());
        assertThat(m.publishedExpiryMs()).isEqualTo(WALL + TTL);
        assertThat(m.canServe(3_000 + TTL - MARGIN)).as("validity comes from the monotonic clock").isFalse();
    }

    @Test
    void aRenewalAnsweredAfterTheValidityRanOutFences() {
        LeaseRenewal m = machine();
        m.attempt(3_000, WALL + 3_000);
        Step s = m.written(0, 3_000, TTL - MARGIN, WALL + 3_000 + TTL);
        assertThat(s).isInstanceOf(Step.FenceNow.class);
        assertThat(((Step.FenceNow) s).fence().kind()).isEqualTo(FenceKind.LAPSED);
        assertThat(m.canServe(TTL - MARGIN - 1)).isFalse();
    }

    @Test
    void aPausedProcessFencesInsteadOfRenewing() {
        LeaseRenewal m = machine();
        assertThat(m.attempt(TTL - MARGIN, WALL + 1)).isInstanceOf(Step.FenceNow.class);
    }

    @Test
    void transientFailuresRetryWhileValidThenFence() {
        LeaseRenewal m = machine();
        m.attempt(3_000, WALL + 3_000);
        assertThat(m.failed(0, 3_100, "503")).isEqualTo(new Step.RetryIn(1_000));
        assertThat(m.failed(0, TTL - MARGIN - 20, "503")).isEqualTo(new Step.RetryIn(10));
        Step f = m.failed(0, TTL - MARGIN, "503");
        assertThat(f).isInstanceOf(Step.FenceNow.class);
        assertThat(((Step.FenceNow) f).fence().cause()).contains("503");
    }

    @Test
    void aRejectedCasIsReconciledFromTheRecord() {
        LeaseRenewal m = machine();
        m.attempt(3_000, WALL + 3_000);
        m.attempt(4_700, WALL + 4_700); // hedged: same round
        // our first attempt landed, its answer was lost; the hedge was rejected; the record is ours
        assertThat(m.rejectedThenRead(0, ours(WALL + 3_000 + TTL), "n1", "s1", 4_800)).isInstanceOf(Step.Adopted.class);
        assertThat(m.canServe(3_000 + TTL - MARGIN - 1)).as("counted from the round's first send").isTrue();
        assertThat(m.canServe(3_000 + TTL - MARGIN)).isFalse();
        assertThat(m.written(0, 4_700, 4_900, WALL + 4_700 + TTL)).as("a late answer of a settled round").isEqualTo(new Step.Ignore());
    }

    @Test
    void anotherWritersRecordFencesAsReplaced() {
        for (OwnerLease found : new OwnerLease[] {OwnerLease.MISSING, new OwnerLease.Malformed("x"), ours(0),
                new OwnerLease.Present(new LeaseRecord("n1", "s2", "h:1", 1, 0, WALL + TTL, LeaseRecord.Load.IDLE))}) {
            LeaseRenewal m = machine();
            m.attempt(3_000, WALL + 3_000);
            Step s = m.rejectedThenRead(0, found, "n1", "s1", 3_100);
            assertThat(s).as("found %s", found).isInstanceOf(Step.FenceNow.class);
            assertThat(((Step.FenceNow) s).fence().kind()).isEqualTo(FenceKind.REPLACED);
        }
        LeaseRenewal m = machine();
        m.attempt(3_000, WALL + 3_000);
        assertThat(((Step.FenceNow) m.rejectedThenRead(0, OwnerLease.MISSING, "n1", "s1", 3_100)).fence().cause())
                .isEqualTo("lease record nodes/n1.json was deleted by another writer");
    }

    @Test
    void aStopEndsServingAndIgnoresLaterAnswers() {
        LeaseRenewal m = machine();
        m.attempt(3_000, WALL + 3_000);
        m.stop();
        assertThat(m.canServe(3_100)).isFalse();
        assertThat(m.written(0, 3_000, 3_100, WALL + 3_000 + TTL)).isEqualTo(new Step.Ignore());
        assertThat(m.expiryCheck(TTL)).isEqualTo(new Step.Ignore());
    }

    @Test
    void aFirstWriteAnsweredTooLateDoesNotStartTheLease() {
        LeaseRenewal m = new LeaseRenewal("nodes/n1.json", TTL, Liveness.withSkew(MARGIN));
        assertThat(m.started(0, TTL - MARGIN, WALL + TTL)).isFalse();
        assertThat(m.canServe(1)).isFalse();
    }

    @Test
    void aMarginNotBelowATtlThirdIsRefused() {
        assertThatThrownBy(() -> new LeaseRenewal("k", 6_000, Liveness.withSkew(2_000)))
                .hasMessageContaining("CELLD_CLOCK_SKEW_MS=2000").hasMessageContaining("CELLD_TTL_MS/3");
    }

    @Test
    void theBrokenVariantServesToTheFullTtl() {
        LeaseRenewal m = new LeaseRenewal("k", TTL, Liveness.brokenWithoutMarginForTests(MARGIN));
        m.started(0, 10, WALL + TTL);
        assertThat(m.canServe(TTL - 1)).isTrue();
    }

    /**
     * The instants, on a grid of sends, answers and probes, at which a machine on {@code liveness}
     * serves at or past a landed renewal's send + TTL − margin: where a peer whose clock is a margin
     * ahead may already have judged the lease dead (SPEC §20).
     */
    static java.util.List<String> servesPastTheSafePoint(Liveness liveness) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (long sendAt = 1_000; sendAt <= 9_000; sendAt += 2_000) {
            for (long latency = 0; latency <= 6_000; latency += 1_500) {
                LeaseRenewal m = new LeaseRenewal("nodes/n1.json", TTL, liveness);
                m.started(0, 20, WALL + TTL);
                long landedSend = 0;
                if (m.attempt(sendAt, WALL + sendAt) instanceof Step.Send send
                        && m.written(send.round(), sendAt, sendAt + latency, send.expiresMs()) instanceof Step.Adopted) {
                    landedSend = sendAt;
                }
                for (long probe = 0; probe <= 2 * TTL; probe += 250) {
                    if (m.canServe(probe) && probe >= landedSend + TTL - MARGIN) {
                        out.add("send " + sendAt + " latency " + latency + " probe " + probe);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void theSafePointHoldsWithTheMarginAndTheTestsCatchLivenessWithoutIt() {
        assertThat(servesPastTheSafePoint(Liveness.withSkew(MARGIN))).isEmpty();
        assertThat(servesPastTheSafePoint(Liveness.brokenWithoutMarginForTests(MARGIN)))
                .as("the broken variant (lease liveness without the skew margin) must be caught").isNotEmpty();
    }

    @Test
    void aHandoffStopDeletesTheRecordUnlessFenced() {
        LeaseRenewal held = machine();
        assertThat(held.stopAndMayDelete()).isTrue();
        assertThat(held.canServe(1)).isFalse();
        LeaseRenewal fenced = machine();
        assertThat(fenced.attempt(TTL, WALL + TTL)).isInstanceOf(Step.FenceNow.class);
        assertThat(fenced.stopAndMayDelete()).as("the record may be another writer's by now").isFalse();
        assertThat(fenced.phase()).isEqualTo(LeaseRenewal.Phase.FENCED);
    }

    @Test
    void aPreserveStopPublishesTheLeaseAsExpiredNowOnlyWhenItWasHeldAndNotFenced() {
        LeaseRenewal held = machine();
        assertThat(held.lapse(WALL + 5_000)).hasValue(WALL + 5_000);
        assertThat(held.canServe(1)).isFalse();
        assertThat(machine().lapse(0)).as("never 0: that is a tombstone").hasValue(1);
        LeaseRenewal never = new LeaseRenewal("nodes/n1.json", TTL, Liveness.withSkew(MARGIN));
        assertThat(never.lapse(WALL)).as("nothing of this session to lower").isEmpty();
        LeaseRenewal fenced = machine();
        fenced.expiryCheck(TTL);
        assertThat(fenced.lapse(WALL)).as("the record may be another writer's by now").isEmpty();
    }

    /**
     * Whatever the pattern of sends and answers, a node never serves past a landed renewal's send +
     * TTL − margin: the point peers (clocks within the margin) are a margin away from judging it dead.
     */
    @Property
    void neverServesPastTheValidityOfWhatLanded(@ForAll @LongRange(min = 1, max = 20_000) long sendAt,
                                               @ForAll @LongRange(min = 0, max = 20_000) long latency,
                                               @ForAll @LongRange(min = 0, max = 30_000) long probe) {
        LeaseRenewal m = machine();
        Step s = m.attempt(sendAt, WALL + sendAt);
        if (s instanceof Step.Send send) {
            m.written(send.round(), sendAt, sendAt + latency, send.expiresMs());
        }
        long landedSend = m.phase() == LeaseRenewal.Phase.HOLDING && m.round() == 1 ? sendAt : 0;
        if (m.canServe(probe)) {
            assertThat(probe).isLessThan(landedSend + TTL - MARGIN);
        }
    }
}
