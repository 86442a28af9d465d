package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The phase timeline an activation's log line carries (issue 22: where a cold activation's milliseconds go). */
class ActivationAttemptPhasesTest {
    @Test
    void eachStageEnteredIsListedInOrderWithItsMilliseconds() throws Exception {
        ActivationAttempt a = new ActivationAttempt("Counter:ab", true);
        a.enter("acquire");
        Thread.sleep(5);
        a.enter("open the database");
        String phases = a.phases(System.nanoTime());
        assertThat(phases).matches("acquire=\\d+\\.\\d open_the_database=\\d+\\.\\d");
        double acquire = Double.parseDouble(phases.substring("acquire=".length(), phases.indexOf(' ')));
        assertThat(acquire).as("the 5 ms slept between the two stages count to the first").isGreaterThanOrEqualTo(4.5);
    }

    @Test
    void noStageYetIsAnEmptyTimeline() {
        assertThat(new ActivationAttempt("Counter:ab", true).phases(System.nanoTime())).isEmpty();
    }
}
