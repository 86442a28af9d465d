package dev.cellgate.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ServerDateTest {
    @Test
    void anHttpDateIsReadAsEpochMilliseconds() {
        assertThat(ServerDate.parse("Tue, 01 Dec 2026 20:17:33 GMT")).hasValue(1_796_156_253_000L);
    }

    @Test
    void aMissingOrGarbledDateIsUnknownNotAnError() {
        assertThat(ServerDate.parse("yesterday")).isEqualTo(OptionalLong.empty());
        assertThat(ServerDate.of(null)).isEqualTo(OptionalLong.empty());
    }
}
