package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The encoding behind KV and R2 listings: reversible, order- and prefix-preserving, and within store key limits. */
class OrderedKeyCodecTest {
    private static final Comparator<String> BYTES = (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
            b.getBytes(StandardCharsets.UTF_8));

    private static String randomKey(Random r) {
        int n = r.nextInt(12) == 0 ? 150 + r.nextInt(400) : r.nextInt(8);
        StringBuilder sb = new StringBuilder();
        String alphabet = "ab/.-~ é😀\u0000zZ";
        while (sb.length() < n) {
            sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        return sb.toString();
    }

    @Test
    void roundTripsAndSortsAsTheRawBytes() {
        Random r = new Random(7);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            keys.add(randomKey(r));
        }
        for (String k : keys) {
            assertThat(OrderedKeyCodec.decode(OrderedKeyCodec.encode(k))).isEqualTo(k);
        }
        List<String> byRaw = new ArrayList<>(keys);
        byRaw.sort(BYTES);
        List<String> byEncoded = new ArrayList<>(keys);
        byEncoded.sort(Comparator.comparing(OrderedKeyCodec::encode));
        assertThat(byEncoded.stream().map(OrderedKeyCodec::encode).toList()).isEqualTo(byRaw.stream().map(OrderedKeyCodec::encode).toList());
    }

    @Test
    void everyKeyWithAPrefixIsUnderItsListPrefix() {
        Random r = new Random(11);
        for (int i = 0; i < 3000; i++) {
            String k = randomKey(r);
            int points = k.codePointCount(0, k.length());
            String prefix = k.substring(0, k.offsetByCodePoints(0, r.nextInt(points + 1))); // whole code points
            assertThat(OrderedKeyCodec.encode(k)).as(k + " / " + prefix).startsWith(OrderedKeyCodec.listPrefix(prefix));
        }
    }

    @Test
    void noSegmentIsLongerThanAFileNameAndNoKeyIsAnothersDirectory() {
        String a = "x".repeat(125); // 200 encoded characters: exactly one full segment
        String b = a + "y";
        assertThat(OrderedKeyCodec.encode(a)).doesNotContain("/");
        assertThat(OrderedKeyCodec.encode(b)).contains("/");
        assertThat(OrderedKeyCodec.encode(b)).doesNotStartWith(OrderedKeyCodec.encode(a) + "/");
        for (String segment : OrderedKeyCodec.encode("é".repeat(256)).split("/")) {
            assertThat(segment.length()).isLessThanOrEqualTo(201);
        }
        // the longest KV key (512 bytes) fits S3's 1,024-byte limit with its kv/<64-char id>/ prefix
        assertThat(("kv/" + "n".repeat(64) + "/" + OrderedKeyCodec.encode("x".repeat(KvRules.MAX_KEY_BYTES))).length()).isLessThanOrEqualTo(1024);
        assertThat(("r2/" + "b".repeat(63) + "/" + OrderedKeyCodec.encode("x".repeat(R2Rules.STORABLE_KEY_BYTES))).length()).isLessThanOrEqualTo(1024);
    }
}
