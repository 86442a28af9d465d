package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.ForwardFailure.Kind;
import dev.cellgate.core.logic.ForwardFailure.Policy;
import dev.cellgate.core.logic.ForwardFailure.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForwardFailureTest {
    /** The kinds after which the call may have run: a re-send could run it twice. */
    static final Set<Kind> MAY_HAVE_RUN = EnumSet.of(Kind.LOST_AFTER_SEND, Kind.UNTRUSTED_ANSWER, Kind.RESULT_LOST,
            Kind.ANSWERED_ERROR);

    /** SPEC §20 as a property: which kinds a policy re-sends although the call may have run. */
    static List<Kind> atMostOnceViolations(Policy policy) {
        List<Kind> out = new ArrayList<>();
        for (Kind k : Kind.values()) {
            if (MAY_HAVE_RUN.contains(k) && policy.verdict(k, false) == Verdict.RESEND) {
                out.add(k);
            }
        }
        return out;
    }

    @Test
    void everyKindHasTheVerdictOfSpec20() {
        Map<Kind, Verdict> expected = new EnumMap<>(Kind.class);
        expected.put(Kind.NO_LIVE_LEASE, Verdict.RESEND);
        expected.put(Kind.OTHER_VERSION, Verdict.NOT_RUN);
        expected.put(Kind.CONNECT_FAILED, Verdict.RESEND);
        expected.put(Kind.NOT_OWNER, Verdict.RESEND);
        expected.put(Kind.DRAINING, Verdict.RESEND);
        expected.put(Kind.REFUSED, Verdict.NOT_RUN);
        expected.put(Kind.VERSION_REFUSED, Verdict.NOT_RUN);
        expected.put(Kind.LOST_AFTER_SEND, Verdict.OUTCOME_UNKNOWN);
        expected.put(Kind.UNTRUSTED_ANSWER, Verdict.OUTCOME_UNKNOWN);
        expected.put(Kind.RESULT_LOST, Verdict.OUTCOME_UNKNOWN);
        expected.put(Kind.ANSWERED_ERROR, Verdict.AS_ANSWERED);
        assertThat(expected.keySet()).as("the table covers every kind").containsExactlyInAnyOrder(Kind.values());
        for (Kind k : Kind.values()) {
            assertThat(Policy.AT_MOST_ONCE.verdict(k, false)).as("%s", k).isEqualTo(expected.get(k));
        }
    }

    @Test
    void onlyWhatProvablyDidNotRunIsSentAgain() {
        for (Kind k : Kind.values()) {
            if (Policy.AT_MOST_ONCE.verdict(k, false) == Verdict.RESEND) {
                assertThat(!k.sent() || k == Kind.NOT_OWNER || k == Kind.DRAINING)
                        .as("%s is re-sent: nothing was sent, or the owner signed that it ran nothing", k).isTrue();
            }
        }
        assertThat(atMostOnceViolations(Policy.AT_MOST_ONCE)).isEmpty();
    }

    @Test
    void theBrokenVariantThatResendsAfterDeliveryIsCaught() {
        assertThat(atMostOnceViolations(Policy.RESEND_AFTER_DELIVERY))
                .containsExactlyInAnyOrder(Kind.LOST_AFTER_SEND, Kind.UNTRUSTED_ANSWER, Kind.RESULT_LOST);
    }

    @Test
    void anIdempotentCallIsSentAgainAfterAnyFailureOfTheWayButNotAfterTheOwnersOwnError() {
        for (Kind k : MAY_HAVE_RUN) {
            Verdict v = Policy.AT_MOST_ONCE.verdict(k, true);
            assertThat(v).as("%s", k).isEqualTo(k == Kind.ANSWERED_ERROR ? Verdict.AS_ANSWERED : Verdict.RESEND);
        }
        assertThat(Policy.AT_MOST_ONCE.verdict(Kind.REFUSED, true)).isEqualTo(Verdict.NOT_RUN);
    }

    @Test
    void aMovedOwnerIsFollowedAtOnceAndAnUnreachableOneAfterAPause() {
        assertThat(ForwardFailure.resendDelayMs(Kind.NOT_OWNER)).isLessThan(ForwardFailure.resendDelayMs(Kind.DRAINING));
        for (Kind k : Kind.values()) {
            assertThat(ForwardFailure.resendDelayMs(k)).as("%s", k).isBetween(1L, 1000L);
        }
    }

    @Test
    void anExportCallIsResentOnlyWhenItDidNotLeaveAndNeverToADeadExporter() {
        for (Kind k : Kind.values()) {
            Verdict v = ForwardFailure.exportVerdict(Policy.AT_MOST_ONCE, k);
            if (MAY_HAVE_RUN.contains(k)) {
                assertThat(v).as("%s", k).isIn(Verdict.OUTCOME_UNKNOWN, Verdict.AS_ANSWERED);
            }
        }
        assertThat(ForwardFailure.exportVerdict(Policy.AT_MOST_ONCE, Kind.NO_LIVE_LEASE))
                .as("no live lease: the exporter's objects are gone with it").isEqualTo(Verdict.NOT_RUN);
        assertThat(ForwardFailure.exportVerdict(Policy.AT_MOST_ONCE, Kind.CONNECT_FAILED)).isEqualTo(Verdict.RESEND);
        assertThat(ForwardFailure.exportVerdict(Policy.RESEND_AFTER_DELIVERY, Kind.LOST_AFTER_SEND))
                .as("the broken variant reaches export calls too").isEqualTo(Verdict.RESEND);
    }

    @Test
    void anUnsignedAnswerIsNeverTakenAsProofThatTheCallDidNotRun() {
        java.util.OptionalInt other = java.util.OptionalInt.of(9);
        java.util.OptionalInt same = java.util.OptionalInt.of(2);
        // a forged "not owner" (or any unsigned claim) must not move the call: it may have run
        assertThat(ForwardFailure.ofUnsigned(409, "not_owner", other, 2)).isEqualTo(Kind.UNTRUSTED_ANSWER);
        assertThat(ForwardFailure.ofUnsigned(500, "", other, 2)).isEqualTo(Kind.UNTRUSTED_ANSWER);
        assertThat(ForwardFailure.unsignedNeedsLease(409, "")).as("no lease read for what cannot be a version refusal").isFalse();
        // a bare 426 from a node whose lease names another version: refused at the door, nothing ran
        assertThat(ForwardFailure.unsignedNeedsLease(426, "")).isTrue();
        assertThat(ForwardFailure.ofUnsigned(426, "", other, 2)).isEqualTo(Kind.VERSION_REFUSED);
        assertThat(ForwardFailure.ofUnsigned(426, "", same, 2)).as("its lease says our version: the 426 proves nothing")
                .isEqualTo(Kind.UNTRUSTED_ANSWER);
        assertThat(ForwardFailure.ofUnsigned(426, "", java.util.OptionalInt.empty(), 2)).as("the lease could not be read")
                .isEqualTo(Kind.UNTRUSTED_ANSWER);
        assertThat(ForwardFailure.ofUnsigned(426, "ok", other, 2)).as("a 426 claiming a result is not the door's refusal")
                .isEqualTo(Kind.UNTRUSTED_ANSWER);
    }
}
