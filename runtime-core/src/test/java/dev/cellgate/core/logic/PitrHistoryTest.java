package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.PitrHistory.Commit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PitrHistoryTest {
    static final long DAY = 86_400_000L;
    static final long NOW = 100 * DAY;
    static final long WINDOW = PitrHistory.windowStartMs(NOW, PitrHistory.retentionMs(30));

    // e1 wrote txids 1..6 long ago and in the window; e2 continued at 6; e3 was a restore to e1@3 (txids 4.. again).
    static final List<Commit> HISTORY = List.of(
            new Commit(1, 1, 2, 10 * DAY), new Commit(1, 3, 3, 40 * DAY), new Commit(1, 4, 6, 75 * DAY),
            new Commit(2, 7, 9, 80 * DAY), new Commit(2, 10, 10, 85 * DAY),
            new Commit(3, 4, 5, 90 * DAY));

    @Test
    void theStateAtATimeIsTheNewestGroupDurableThen() {
        assertThat(PitrHistory.stateAt(HISTORY, 76 * DAY, WINDOW, "c")).isEqualTo(new Bookmark(76 * DAY, 1, 6));
        assertThat(PitrHistory.stateAt(HISTORY, 85 * DAY, WINDOW, "c")).isEqualTo(new Bookmark(85 * DAY, 2, 10));
        // after the restore the newest group is the new lineage's, though its txids are lower
        assertThat(PitrHistory.stateAt(HISTORY, 95 * DAY, WINDOW, "c")).isEqualTo(new Bookmark(95 * DAY, 3, 5));
        // the window opens on a state made before it
        assertThat(PitrHistory.stateAt(HISTORY, WINDOW, WINDOW, "c")).isEqualTo(new Bookmark(WINDOW, 1, 3));
    }

    @Test
    void beforeAnyWriteTheStateIsEmpty() {
        assertThat(PitrHistory.stateAt(List.of(new Commit(1, 1, 1, NOW)), NOW - 1, WINDOW, "c").isEmpty()).isTrue();
    }

    @Test
    void aTimeBeforeTheWindowOrWithRetentionOffIsRefused() {
        assertThatThrownBy(() -> PitrHistory.stateAt(HISTORY, WINDOW - 1, WINDOW, "Counter:ab"))
                .hasMessageContaining("before the retention window of Counter:ab").hasMessageContaining("CELLD_PITR_DAYS");
        long off = PitrHistory.windowStartMs(NOW, PitrHistory.retentionMs(0));
        assertThatThrownBy(() -> PitrHistory.stateAt(HISTORY, NOW, off, "c")).hasMessageContaining("CELLD_PITR_DAYS=0");
        assertThat(PitrHistory.outsideWindow(new Bookmark(NOW, 1, 1), off)).isPresent();
        assertThat(PitrHistory.outsideWindow(new Bookmark(WINDOW - 1, 1, 1), WINDOW)).isPresent();
        assertThat(PitrHistory.outsideWindow(new Bookmark(WINDOW, 1, 1), WINDOW)).isEmpty();
        assertThatThrownBy(() -> PitrHistory.retentionMs(-1)).hasMessageContaining("CELLD_PITR_DAYS");
    }

    @Test
    void floorsKeepTheStateTheWindowOpenedOnAndNothingOlder() {
        // e1: first group in the window is 4..6, so txid 3 (made on day 40) must stay restorable, not 1..2
        // e2: every group is in the window: from its start (txid 6); e3 likewise from 3
        assertThat(PitrHistory.floors(HISTORY, WINDOW)).isEqualTo(Map.of(1L, 3L, 2L, 6L, 3L, 3L));
        // one day later e1's day-75 group is still in; 76 days later, only e3's is
        assertThat(PitrHistory.floors(HISTORY, 86 * DAY)).isEqualTo(Map.of(3L, 3L));
        assertThat(PitrHistory.floors(HISTORY, Long.MAX_VALUE)).isEmpty();
    }
}
