package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BookmarkTest {

    @Test
    void roundTripsEveryField() {
        Bookmark b = new Bookmark(1_760_000_000_123L, 7, 4_242);
        assertThat(Bookmark.parse(b.encode())).isEqualTo(b);
        assertThat(b.encode()).isEqualTo("00000199c82cc07b-0000000000000007-0000000000001092");
        assertThat(Bookmark.parse(Bookmark.empty(5).encode()).isEmpty()).isTrue();
    }

    @Test
    void stringsSortByTimeWhateverTheEpochAndTxid() {
        List<Bookmark> inTime = List.of(new Bookmark(9, 900, 90_000), new Bookmark(10, 1, 1), new Bookmark(255, 3, 2),
                new Bookmark(256, 2, 1), new Bookmark(1L << 40, 1, 7));
        List<String> shuffled = new ArrayList<>(inTime.stream().map(Bookmark::encode).toList());
        Collections.reverse(shuffled);
        Collections.sort(shuffled);
        assertThat(shuffled.stream().map(Bookmark::parse).toList()).isEqualTo(inTime);
    }

    @Test
    void refusesWhatItDidNotWrite() {
        assertThatThrownBy(() -> Bookmark.parse("0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b"))
                .hasMessageContaining("invalid bookmark").hasMessageContaining("3 groups of 16 lowercase hex");
        assertThatThrownBy(() -> Bookmark.parse("0000019990D1F97B-0000000000000007-0000000000001092"))
                .hasMessageContaining("invalid bookmark");
        assertThatThrownBy(() -> Bookmark.parse(null)).hasMessageContaining("null");
        // a negative time does not fit (top bit set)
        assertThatThrownBy(() -> Bookmark.parse("8000000000000000-0000000000000001-0000000000000001"))
                .hasMessageContaining("out of range");
        // epoch 0 is only the empty database
        assertThatThrownBy(() -> Bookmark.parse("0000000000000001-0000000000000000-0000000000000005"))
                .hasMessageContaining("only the empty database");
    }
}
