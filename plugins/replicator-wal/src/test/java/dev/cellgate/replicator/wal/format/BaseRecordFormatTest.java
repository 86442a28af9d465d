package dev.cellgate.replicator.wal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pin's format is the rolling-upgrade guard of timed segment keys: a build from before them
 * accepts only format 1 (its {@code Json.reqFormat(j, 1, what)}), so it must fail to read every pin
 * written now, while this build still reads the pins of older buckets.
 */
class BaseRecordFormatTest {
    private static final BaseRecord PIN = new BaseRecord("Counter:abc", 3, Position.empty(), null, List.of());

    @Test
    void aPinWrittenNowIsOneABuildWithoutTimedKeysRefuses() {
        JsonObject written = new JsonObject(new String(PIN.toBytes(), StandardCharsets.UTF_8));
        assertThat(written.getLong("format")).isEqualTo(2L);
        // what a build from before timed segment keys runs on it (its only accepted format was 1)
        assertThatThrownBy(() -> Json.reqFormat(written, BaseRecord.FORMAT_BEFORE_TIMED_KEYS, "pin"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unsupported format 2");
    }

    @Test
    void pinsOfOlderBucketsAreStillRead() {
        JsonObject old = new JsonObject(new String(PIN.toBytes(), StandardCharsets.UTF_8)).put("format", 1);
        BaseRecord read = BaseRecord.fromBytes(old.encode().getBytes(StandardCharsets.UTF_8), "pin");
        assertThat(read.epoch()).isEqualTo(3);
        assertThat(read.scope()).isEqualTo("Counter:abc");
        assertThat(BaseRecord.fromBytes(PIN.toBytes(), "pin")).isEqualTo(PIN);
    }

    @Test
    void aFormatFromTheFutureIsRefusedByName() {
        JsonObject future = new JsonObject(new String(PIN.toBytes(), StandardCharsets.UTF_8)).put("format", 3);
        assertThatThrownBy(() -> BaseRecord.fromBytes(future.encode().getBytes(StandardCharsets.UTF_8), "pin e3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("pin e3: unsupported format 3");
    }
}
