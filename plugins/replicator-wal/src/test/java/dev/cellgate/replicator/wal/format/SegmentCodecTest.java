package dev.cellgate.replicator.wal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SegmentCodecTest {
    private static byte[] sample() {
        Random rnd = new Random(5);
        TreeMap<Integer, byte[]> pages = new TreeMap<>();
        for (int pg : new int[] {1, 3, 4}) {
            byte[] p = new byte[512];
            rnd.nextBytes(p);
            pages.put(pg, p);
        }
        return SegmentCodec.encode(new SegmentHeader(SegmentKind.L0, SegmentCodec.scopeTag("S:1"), 7, 512, 4, 2,
                10, 12, 0x1234, 0x5678), pages);
    }

    @Test
    void roundTrips() {
        Segment s = SegmentCodec.decode(sample());
        assertThat(s.header().epoch()).isEqualTo(7);
        assertThat(s.header().minTxid()).isEqualTo(10);
        assertThat(s.header().maxTxid()).isEqualTo(12);
        assertThat(s.header().lowPages()).isEqualTo(2);
        assertThat(s.pageCount()).isEqualTo(3);
        assertThat(s.pgno(2)).isEqualTo(4);
        assertThat(s.header().scopeTag()).isEqualTo(SegmentCodec.scopeTag("S:1")).isNotEqualTo(SegmentCodec.scopeTag("S:2"));
    }

    @Test
    void everyFlippedBitAndEveryTruncationIsDetected() {
        byte[] good = sample();
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 << (i % 8));
            assertThatThrownBy(() -> SegmentCodec.decode(bad)).as("flip at %d", i).isInstanceOf(SegmentFormatException.class);
        }
        for (int len = 0; len < good.length; len += 7) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThatThrownBy(() -> SegmentCodec.decode(cut)).as("cut at %d", len).isInstanceOf(SegmentFormatException.class);
        }
    }
}
