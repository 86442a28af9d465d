package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.CellLifecycle.Phase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellLifecycleTest {

    @Test
    void theMovesAreExactlyTheDocumentedOnes() {
        List<String> allowed = new ArrayList<>();
        for (Phase from : Phase.values()) {
            for (Phase to : Phase.values()) {
                if (CellLifecycle.allowed(from, to)) {
                    allowed.add(from + ">" + to);
                }
            }
        }
        assertThat(allowed).containsExactlyInAnyOrder(
                "STARTING>SERVING", "STARTING>RELEASING", "STARTING>GONE",
                "SERVING>HIBERNATED", "SERVING>RELEASING", "SERVING>GONE",
                "HIBERNATED>SERVING", "HIBERNATED>RELEASING", "HIBERNATED>GONE",
                "RELEASING>GONE");
    }

    @Test
    void aGoneCellNeverComesBackAndAReleasingOneNeverServesAgain() {
        for (Phase to : Phase.values()) {
            assertThat(CellLifecycle.allowed(Phase.GONE, to)).as("GONE>" + to).isFalse();
        }
        assertThatThrownBy(() -> CellLifecycle.move(Phase.RELEASING, Phase.SERVING, "C:x"))
                .isInstanceOf(IllegalStateException.class).hasMessage("cell C:x cannot go from RELEASING to SERVING");
        assertThatThrownBy(() -> CellLifecycle.move(Phase.SERVING, Phase.SERVING, "C:x")).isInstanceOf(IllegalStateException.class);
        assertThat(CellLifecycle.move(Phase.HIBERNATED, Phase.SERVING, "C:x")).isEqualTo(Phase.SERVING);
    }

    @Test
    void onlyCellsNotLeavingTakeEvents() {
        assertThat(Phase.values()).filteredOn(Phase::takesEvents)
                .containsExactly(Phase.STARTING, Phase.SERVING, Phase.HIBERNATED);
    }
}
