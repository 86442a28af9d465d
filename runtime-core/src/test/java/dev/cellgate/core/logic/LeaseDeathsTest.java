package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.WakerLeaseRecord;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeaseDeathsTest {
    static final Liveness MARGIN = Liveness.withSkew(500);

    static LeaseRecord lease(String node, String session, long expires) {
        return new LeaseRecord(node, session, "h:1", 1, 0, expires, LeaseRecord.Load.IDLE);
    }

    @Test
    void aLeaseDiesOnlyPastItsExpiryPlusTheMarginAndIsReportedOnce() {
        LeaseRecord b = lease("b", "s1", 10_000);
        assertThat(LeaseDeaths.look(List.of(b), Set.of(), "a", 10_499, MARGIN).died()).as("within the margin: alive").isEmpty();
        LeaseDeaths.Look first = LeaseDeaths.look(List.of(b), Set.of(), "a", 10_500, MARGIN);
        assertThat(first.died()).containsExactly(b);
        LeaseDeaths.Look second = LeaseDeaths.look(List.of(b), first.reported(), "a", 11_000, MARGIN);
        assertThat(second.died()).as("reported once").isEmpty();
        LeaseRecord reborn = lease("b", "s2", 9_000);
        assertThat(LeaseDeaths.look(List.of(reborn), second.reported(), "a", 11_000, MARGIN).died())
                .as("a new session's death is a new death").containsExactly(reborn);
        assertThat(LeaseDeaths.look(List.of(), second.reported(), "a", 11_000, MARGIN).reported()).as("forgotten once gone").isEmpty();
    }

    @Test
    void ownLeaseAndLiveLeasesAreNeverReported() {
        assertThat(LeaseDeaths.look(List.of(lease("a", "s1", 0), lease("c", "s1", 99_000)), Set.of(), "a", 50_000, MARGIN).died()).isEmpty();
    }

    @Test
    void aDeadHoldersWakerLeaseIsTakenAtOnce() {
        WakerLeaseRecord held = new WakerLeaseRecord("b", "s1", 90_000);
        assertThat(WakerLease.decide(held, false, "a", "x", 11_000, MARGIN)).isEqualTo(WakerLease.Action.LEAVE);
        assertThat(WakerLease.decide(held, false, "a", "x", 11_000, MARGIN, true)).isEqualTo(WakerLease.Action.TAKE);
        assertThat(WakerLease.decide(new WakerLeaseRecord("a", "x", 0), false, "a", "x", 11_000, MARGIN, true))
                .as("ours stays a renewal").isEqualTo(WakerLease.Action.RENEW);
    }

    @Test
    void theNextLookComesJustWhenAPeerLeaseCanFirstBeJudgedDeadWhenThatIsBeforeTheRefresh() {
        // b expires at 10 000: with the 500 ms margin it can be judged dead from 10 500 on
        LeaseRecord b = lease("b", "s1", 10_000);
        assertThat(LeaseDeaths.nextLookInMs(List.of(b), "a", 10_000, 1_000, MARGIN)).isEqualTo(500);
        assertThat(LeaseDeaths.nextLookInMs(List.of(b), "a", 9_000, 1_000, MARGIN)).as("the refresh comes first").isEqualTo(1_000);
        assertThat(LeaseDeaths.nextLookInMs(List.of(b, lease("c", "s1", 9_800)), "a", 10_000, 1_000, MARGIN))
                .as("the earliest peer").isEqualTo(300);
        assertThat(LeaseDeaths.nextLookInMs(List.of(lease("a", "s1", 10_000)), "a", 10_000, 1_000, MARGIN))
                .as("not our own lease").isEqualTo(1_000);
        assertThat(LeaseDeaths.nextLookInMs(List.of(b), "a", 10_600, 1_000, MARGIN))
                .as("already dead: reported by this look, nothing to wait for").isEqualTo(1_000);
        assertThat(LeaseDeaths.nextLookInMs(List.of(b), "a", 10_499, 1_000, MARGIN)).as("never less than 1 ms").isEqualTo(1);
    }
}
