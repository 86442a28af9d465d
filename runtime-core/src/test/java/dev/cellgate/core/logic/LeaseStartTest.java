package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import org.junit.jupiter.api.Test;

class LeaseStartTest {
    static final long NOW = 1_000_000;
    static final Liveness L = Liveness.withSkew(2_000);

    static OwnerLease lease(String session, long expires) {
        return new OwnerLease.Present(new LeaseRecord("n1", session, "h:1", 1, 0, expires, LeaseRecord.Load.IDLE));
    }

    @Test
    void anEarlierSessionsLeaseIsWaitedForUntilItsExpiryPlusTheMargin() {
        assertThat(LeaseStart.before(lease("old", NOW - 1), "n1", "new", 0, NOW, L))
                .isEqualTo(new LeaseStart.Before.HeldByAnotherSession("old", 1_999));
        assertThat(LeaseStart.before(lease("old", NOW - 2_000), "n1", "new", 0, NOW, L)).isEqualTo(new LeaseStart.Before.Write());
        assertThat(LeaseStart.before(OwnerLease.MISSING, "n1", "new", 0, NOW, L)).isEqualTo(new LeaseStart.Before.Write());
        assertThat(LeaseStart.before(lease("new", NOW + 5_000), "n1", "new", 0, NOW, L)).as("our own").isEqualTo(new LeaseStart.Before.Write());
    }

    @Test
    void aRejoinWritesOverItsOwnDeadSessionsAtOnceButStillWaitsForAnyOther() {
        java.util.Set<String> dead = java.util.Set.of("s0", "s1");
        assertThat(LeaseStart.before(lease("s0", NOW + 5_000), "n1", "s2", dead, 0, NOW, L))
                .as("the fenced session's record, still live to peers").isEqualTo(new LeaseStart.Before.Write());
        assertThat(LeaseStart.before(lease("s1", NOW + 5_000), "n1", "s2", dead, 0, NOW, L))
                .as("an abandoned start's write that landed late").isEqualTo(new LeaseStart.Before.Write());
        assertThat(LeaseStart.before(lease("zz", NOW + 5_000), "n1", "s2", dead, 0, NOW, L))
                .as("another process with this node id").isEqualTo(new LeaseStart.Before.HeldByAnotherSession("zz", 7_000));
        assertThat(LeaseStart.before(lease("s0", 0), "n1", "s2", dead, 0, NOW, L))
                .as("GC retiring the dead session: its delete would remove a lease written now")
                .isEqualTo(new LeaseStart.Before.WaitForRetirement());
    }

    @Test
    void aTombstoneIsWaitedForABoundedNumberOfPeriods() {
        assertThat(LeaseStart.before(lease("old", 0), "n1", "new", 0, NOW, L)).isEqualTo(new LeaseStart.Before.WaitForRetirement());
        assertThat(LeaseStart.before(lease("old", 0), "n1", "new", LeaseStart.TOMBSTONE_WAITS, NOW, L))
                .isEqualTo(new LeaseStart.Before.Write());
    }

    @Test
    void anUnclearFirstWriteIsAdoptedOnlyWhenTheRecordIsExactlyOurs() {
        LeaseRecord mine = new LeaseRecord("n1", "s1", "h:1", 1, NOW, NOW + 10_000, LeaseRecord.Load.IDLE);
        assertThat(LeaseStart.afterUnclearWrite(mine, new OwnerLease.Present(mine), "v7", 1, "Ambiguous"))
                .isEqualTo(new LeaseStart.AfterUnclear.Adopt("v7"));
        assertThat(LeaseStart.afterUnclearWrite(mine, OwnerLease.MISSING, null, 1, "Ambiguous"))
                .isEqualTo(new LeaseStart.AfterUnclear.LookAgain());
        assertThat(LeaseStart.afterUnclearWrite(mine, lease("s1", NOW + 1), "v8", 1, "Rejected"))
                .as("an earlier attempt of ours: look again (then CAS over it)").isEqualTo(new LeaseStart.AfterUnclear.LookAgain());
        assertThat(LeaseStart.afterUnclearWrite(mine, OwnerLease.MISSING, null, LeaseStart.WRITE_ROUNDS, "Rejected"))
                .isInstanceOf(LeaseStart.AfterUnclear.Fail.class);
    }

    @Test
    void aStartWaitsForAnotherSessionJustPastItsDeathForAtMostThreeTtls() {
        long ttl = 10_000;
        long giveUp = LeaseStart.giveUpAtMono(500, ttl);
        assertThat(giveUp).isEqualTo(500 + 3 * ttl);
        assertThat(LeaseStart.heldRetryInMs(1_999, ttl, 600, giveUp)).as("just after it is judged dead").hasValue(2_049);
        assertThat(LeaseStart.heldRetryInMs(0, ttl, 600, giveUp)).as("never a busy loop").hasValue(100);
        assertThat(LeaseStart.heldRetryInMs(60_000, ttl, 600, giveUp)).as("a lease still renewed is seen again within a TTL")
                .hasValue(ttl);
        assertThat(LeaseStart.heldRetryInMs(1_999, ttl, giveUp - 1, giveUp)).isPresent();
        assertThat(LeaseStart.heldRetryInMs(1_999, ttl, giveUp, giveUp)).as("another live process with this node id").isEmpty();
    }

    @Test
    void unclearWritesBackOffAndTombstonesAreWaitedForARenewalPeriodAtATime() {
        assertThat(LeaseStart.lookAgainInMs(10_000, 1)).isEqualTo(500);
        assertThat(LeaseStart.lookAgainInMs(10_000, 3)).isEqualTo(1_500);
        assertThat(LeaseStart.lookAgainInMs(100, 1)).as("at least 10 ms").isEqualTo(10);
        assertThat(LeaseStart.retirementWaitMs(9_000)).isEqualTo(3_000);
        assertThat(LeaseStart.retirementWaitMs(2)).isEqualTo(1);
    }
}
