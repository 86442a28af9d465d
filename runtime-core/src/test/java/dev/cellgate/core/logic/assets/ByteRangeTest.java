package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 9110 §14 byte ranges of one asset, as {@link ByteRange} decides them. */
class ByteRangeTest {
    private static final String TAG = "0123456789abcdef0123456789abcdef";

    private static String of(String range, long length) {
        ByteRange r = ByteRange.of(range, null, TAG, length);
        return r.status() == 0 ? "whole" : r.status() + " " + r.contentRange(length);
    }

    @Test
    void oneRangeIsServedClippedToTheFile() {
        assertThat(of("bytes=0-0", 10)).isEqualTo("206 bytes 0-0/10");
        assertThat(of("bytes=2-4", 10)).isEqualTo("206 bytes 2-4/10");
        assertThat(of("bytes=5-100", 10)).isEqualTo("206 bytes 5-9/10");
        assertThat(of("bytes=5-", 10)).isEqualTo("206 bytes 5-9/10");
        assertThat(of("bytes=-3", 10)).isEqualTo("206 bytes 7-9/10");
        assertThat(of("bytes=-30", 10)).isEqualTo("206 bytes 0-9/10");
        assertThat(of("BYTES = 1-2", 10)).as("the unit is case-insensitive").isEqualTo("206 bytes 1-2/10");
        assertThat(of("bytes=0-99999999999999999999999", 10)).as("an overflowing last byte is the end").isEqualTo("206 bytes 0-9/10");
    }

    @Test
    void aRangeNothingOfTheFileSatisfiesIs416() {
        assertThat(of("bytes=10-", 10)).isEqualTo("416 bytes */10");
        assertThat(of("bytes=10-20", 10)).isEqualTo("416 bytes */10");
        assertThat(of("bytes=-0", 10)).isEqualTo("416 bytes */10");
        assertThat(of("bytes=0-", 0)).isEqualTo("416 bytes */0");
        assertThat(of("bytes=-5", 0)).isEqualTo("416 bytes */0");
    }

    @Test
    void whatDoesNotParseOrIsNotOneRangeIsTheWholeFile() {
        assertThat(of(null, 10)).isEqualTo("whole");
        assertThat(of("bytes=4-2", 10)).isEqualTo("whole");
        assertThat(of("bytes=0-1,3-4", 10)).isEqualTo("whole");
        assertThat(of("items=0-1", 10)).isEqualTo("whole");
        assertThat(of("bytes=", 10)).isEqualTo("whole");
        assertThat(of("bytes=-", 10)).isEqualTo("whole");
        assertThat(of("bytes=a-b", 10)).isEqualTo("whole");
        assertThat(of("bytes=+1-2", 10)).isEqualTo("whole");
        assertThat(of("0-1", 10)).isEqualTo("whole");
    }

    @Test
    void ifRangeServesThePartOnlyForTheSameStrongEtag() {
        assertThat(ByteRange.of("bytes=0-1", '"' + TAG + '"', TAG, 10).status()).isEqualTo(206);
        assertThat(ByteRange.of("bytes=0-1", "W/\"" + TAG + '"', TAG, 10).status()).as("weak tags never match If-Range").isEqualTo(0);
        assertThat(ByteRange.of("bytes=0-1", "\"other\"", TAG, 10).status()).isEqualTo(0);
        assertThat(ByteRange.of("bytes=0-1", "Wed, 21 Oct 2015 07:28:00 GMT", TAG, 10).status()).as("a date: no Last-Modified to compare").isEqualTo(0);
    }
}
