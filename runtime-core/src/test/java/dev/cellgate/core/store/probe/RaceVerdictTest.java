package dev.cellgate.core.store.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.probe.RaceVerdict.Kind;
import dev.cellgate.core.store.probe.RaceVerdict.Stored;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure verdict on one race round: only clear rounds count, a lost answer reruns, proof of a wrong store is final. */
class RaceVerdictTest {
    static final WriteOutcome WON = new WriteOutcome.Written("v2");
    static final WriteOutcome LOST = new WriteOutcome.Rejected("412");
    static final WriteOutcome UNCLEAR = new WriteOutcome.Ambiguous("reset", null);

    /** Four racers: the given answers, the rest rejected. */
    static List<WriteOutcome> answers(WriteOutcome... first) {
        List<WriteOutcome> a = new ArrayList<>(List.of(first));
        while (a.size() < 4) {
            a.add(LOST);
        }
        return a;
    }

    static Kind judge(List<WriteOutcome> answers, Stored stored) {
        return RaceVerdict.judge(answers, stored).kind();
    }

    @Test
    void oneClearWinnerStoredCounts() {
        assertThat(judge(answers(WON), new Stored.Racer(0, "v2"))).isEqualTo(Kind.COUNTS);
    }

    @Test
    void twoWinnersAreWrongWhateverIsStored() {
        assertThat(RaceVerdict.fromAnswers(answers(WON, WON, UNCLEAR)).kind()).isEqualTo(Kind.WRONG);
        assertThat(RaceVerdict.fromAnswers(answers(WON, UNCLEAR))).isNull();
    }

    @Test
    void aLostAnswerRerunsTheRoundUnlessTheStoredStateProvesTheStoreWrong() {
        assertThat(judge(answers(WON, UNCLEAR), new Stored.Racer(0, "v2"))).isEqualTo(Kind.UNCLEAR);
        assertThat(judge(answers(UNCLEAR), new Stored.Racer(0, "v3"))).as("the unclear racer won").isEqualTo(Kind.UNCLEAR);
        assertThat(judge(answers(UNCLEAR), new Stored.Before())).as("it did not land").isEqualTo(Kind.UNCLEAR);
        assertThat(judge(answers(WON, UNCLEAR), new Stored.Racer(1, "v3"))).as("it landed over the winner").isEqualTo(Kind.WRONG);
        assertThat(judge(answers(UNCLEAR, LOST), new Stored.Racer(1, "v3"))).as("a rejected racer's bytes").isEqualTo(Kind.WRONG);
    }

    @Test
    void wrongStoredStatesAreFinal() {
        assertThat(judge(answers(WON), new Stored.Racer(2, "v2"))).as("a loser landed").isEqualTo(Kind.WRONG);
        assertThat(judge(answers(WON), new Stored.Before())).as("the winner's write is not there").isEqualTo(Kind.WRONG);
        assertThat(judge(answers(WON), new Stored.Racer(0, "v9"))).as("another version").isEqualTo(Kind.WRONG);
        assertThat(judge(answers(WON), new Stored.Other("nothing"))).isEqualTo(Kind.WRONG);
        assertThat(judge(answers(), new Stored.Before())).as("nobody won a clean race").isEqualTo(Kind.WRONG);
    }

    @Test
    void aLateWriteOfAnEarlierUnclearRoundMayWinARoundButNeverLandOverAWinner() {
        assertThat(judge(answers(), new Stored.Late("v4"))).isEqualTo(Kind.UNCLEAR);
        assertThat(judge(answers(WON), new Stored.Late("v4"))).isEqualTo(Kind.WRONG);
    }
}
