package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The node's KV copies: a read never puts back an answer older than a local write, whatever the order of answers. */
class KvReadCacheTest {
    static final long NOW = 1_800_000_000_000L;

    static KvReadCache.Copy copy(String v) {
        return new KvReadCache.Copy(v.getBytes(StandardCharsets.UTF_8), null, -1);
    }

    static String value(KvReadCache.Hit h) {
        return h == null ? "(no copy)" : h.copy() == null ? "(missing)" : new String(h.copy().value(), StandardCharsets.UTF_8);
    }

    @Test
    void aCopyServesForTheReadsCacheTtlAndMissingKeysAreCachedToo() {
        KvReadCache c = new KvReadCache(1 << 20);
        c.readAnswered("k", c.readBegins(), copy("v1"), NOW);
        c.readAnswered("gone", c.readBegins(), null, NOW);
        assertThat(value(c.lookup("k", NOW + 59_999, Double.NaN))).as("the default cacheTtl: 60 s").isEqualTo("v1");
        assertThat(c.lookup("k", NOW + 60_000, Double.NaN)).isNull();
        assertThat(value(c.lookup("k", NOW + 29_999, 30))).isEqualTo("v1");
        assertThat(c.lookup("k", NOW + 30_000, 30)).as("a read's own cacheTtl").isNull();
        assertThat(c.lookup("k", NOW + 100_000, 120)).as("a longer cacheTtl keeps the copy longer").isNotNull();
        assertThat(value(c.lookup("gone", NOW, Double.NaN))).isEqualTo("(missing)");
    }

    @Test
    void aReadAnsweredAfterALocalWriteBeganKeepsNothing() {
        KvReadCache c = new KvReadCache(1 << 20);
        long ticket = c.readBegins(); // the read is on its way to the bucket with the old value
        c.writeBegins("k");
        assertThat(c.lookup("k", NOW, Double.NaN)).as("a write in flight: reads go to the bucket").isNull();
        c.writeEnded("k", copy("new"), true, NOW);
        c.readAnswered("k", ticket, copy("old"), NOW + 1);
        assertThat(value(c.lookup("k", NOW + 2, Double.NaN))).isEqualTo("new");
    }

    @Test
    void aReadThatBeganWhileAWriteWasInFlightKeepsNothingEvenIfTheWritesCopyWasEvicted() {
        KvReadCache c = new KvReadCache(600);
        c.writeBegins("k");
        long ticket = c.readBegins(); // may still see the old value in the bucket
        c.writeEnded("k", copy("new"), true, NOW);
        for (int i = 0; i < 10; i++) {
            c.readAnswered("filler" + i, c.readBegins(), copy("x"), NOW); // pushes k's copy out
        }
        assertThat(c.lookup("k", NOW, Double.NaN)).as("evicted").isNull();
        c.readAnswered("k", ticket, copy("old"), NOW + 1);
        assertThat(c.lookup("k", NOW + 2, Double.NaN)).as("the older answer is not kept").isNull();
        c.readAnswered("k", c.readBegins(), copy("new"), NOW + 3);
        assertThat(value(c.lookup("k", NOW + 4, Double.NaN))).as("a read begun after the write is").isEqualTo("new");
    }

    @Test
    void aFailedOrOverlappedWriteLeavesNoCopy() {
        KvReadCache c = new KvReadCache(1 << 20);
        c.readAnswered("k", c.readBegins(), copy("v1"), NOW);
        c.writeBegins("k");
        c.writeEnded("k", copy("v2"), false, NOW);
        assertThat(c.lookup("k", NOW, Double.NaN)).as("unconfirmed: the bucket holds v1 or v2").isNull();
        c.writeBegins("k");
        c.writeBegins("k");
        c.writeEnded("k", copy("a"), true, NOW);
        c.writeEnded("k", copy("b"), true, NOW);
        assertThat(c.lookup("k", NOW, Double.NaN)).as("two at once: which landed last is unknown").isNull();
        c.writeBegins("k");
        c.writeEnded("k", null, true, NOW);
        assertThat(value(c.lookup("k", NOW, Double.NaN))).as("a confirmed delete").isEqualTo("(missing)");
    }

    @Test
    void largeValuesAreNotCachedAndTheSizeStaysWithinItsBound() {
        KvReadCache c = new KvReadCache(4_000);
        c.readAnswered("big", c.readBegins(), new KvReadCache.Copy(new byte[KvReadCache.MAX_VALUE_BYTES + 1], null, -1), NOW);
        assertThat(c.lookup("big", NOW, Double.NaN)).isNull();
        for (int i = 0; i < 100; i++) {
            c.readAnswered("k" + i, c.readBegins(), copy("0123456789"), NOW);
        }
        assertThat(c.bytes()).isLessThanOrEqualTo(4_000);
        assertThat(c.lookup("k99", NOW, Double.NaN)).as("the newest stays").isNotNull();
        assertThat(c.lookup("k0", NOW, Double.NaN)).as("the oldest went").isNull();
    }
}
