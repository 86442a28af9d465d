package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Cache API's storage rules and range reading, at a fixed time (the differential corpus covers them against workerd). */
class HttpCachePolicyTest {
    static final long NOW = 1_700_000_000_000L;

    static HttpCachePolicy.Decision decide(int status, boolean auth, String... headers) {
        List<Map.Entry<String, String>> h = new java.util.ArrayList<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.add(Map.entry(headers[i], headers[i + 1]));
        }
        return HttpCachePolicy.decide(status, h, auth, NOW);
    }

    @Test
    void freshnessComesFromSMaxageThenMaxAgeThenExpiresThenLastModified() {
        assertThat(decide(200, false, "cache-control", "max-age=0, s-maxage=60").ttlMs()).isEqualTo(60_000);
        assertThat(decide(200, false, "Cache-Control", "max-age=120").ttlMs()).isEqualTo(120_000);
        assertThat(decide(200, false, "expires", HttpCachePolicy.httpDate(NOW + 30_000), "date", HttpCachePolicy.httpDate(NOW)).ttlMs())
                .isEqualTo(30_000);
        assertThat(decide(200, false, "last-modified", HttpCachePolicy.httpDate(NOW - 1_000_000)).ttlMs()).isEqualTo(100_000);
        assertThat(decide(200, false, "cache-control", "max-age=60", "age", "100").stored()).isFalse();
        assertThat(decide(200, false, "cache-control", "max-age=0, stale-while-revalidate=5").ttlMs()).isEqualTo(5_000);
    }

    @Test
    void refusals() {
        assertThat(decide(200, false).stored()).isFalse();
        assertThat(decide(200, false, "cache-control", "no-store, max-age=60").stored()).isFalse();
        assertThat(decide(200, false, "cache-control", "private, max-age=60").stored()).isFalse();
        assertThat(decide(200, false, "cache-control", "max-age=60", "set-cookie", "a=b").stored()).isFalse();
        assertThat(decide(500, false, "cache-control", "max-age=60").stored()).isFalse();
        assertThat(decide(200, true, "cache-control", "max-age=60").stored()).isFalse();
        assertThat(decide(200, true, "cache-control", "public, max-age=60").stored()).isTrue();
    }

    @Test
    void privateSetCookieDropsTheCookieAndHopByHopHeadersGo() {
        HttpCachePolicy.Decision d = decide(200, false, "cache-control", "max-age=60, private=set-cookie", "set-cookie", "a=b",
                "connection", "close", "age", "3");
        assertThat(d.stored()).isTrue();
        assertThat(d.headers()).extracting(Map.Entry::getKey).containsExactly("cache-control", "age", "date");
        assertThat(d.headers().get(0).getValue()).isEqualTo("max-age=60,");
        assertThat(d.headers().get(1).getValue()).isEqualTo("3");
    }

    @Test
    void rangesAsWorkerdsLocalCacheReadsThem() {
        assertThat(ByteRanges.parse("bytes=2-4", 10)).containsExactly(new ByteRanges.Range(2, 4));
        assertThat(ByteRanges.parse("bytes=-3", 10)).containsExactly(new ByteRanges.Range(7, 9));
        assertThat(ByteRanges.parse("bytes=5-100", 10)).containsExactly(new ByteRanges.Range(5, 9));
        assertThat(ByteRanges.parse("bytes=-20", 10)).isEmpty();
        assertThat(ByteRanges.parse("bytes=20-30", 10)).isNull();
        assertThat(ByteRanges.parse("items=1-2", 10)).isNull();
        assertThat(ByteRanges.parse("bytes=0-1,3-4", 10)).hasSize(2);
        assertThat(CacheConditions.notModified("W/\"a\", \"b\"", "\"b\"", null, null)).isTrue();
        assertThat(CacheConditions.notModified("\"c\"", "\"b\"", null, null)).isFalse();
    }
}
