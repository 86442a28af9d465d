package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CronClaimTest {
    static final CronSchedule EVERY_MINUTE = CronSchedule.parse("* * * * *");
    static final CronSchedule HOURLY = CronSchedule.parse("0 * * * *");

    static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void theFirstOccurrenceAfterThePushIsClaimed() {
        assertThat(CronClaim.toClaim(EVERY_MINUTE, OptionalLong.empty(), at("2024-03-05T10:01:00.200Z"), at("2024-03-05T10:00:30Z")))
                .hasValue(at("2024-03-05T10:01:00Z"));
    }

    @Test
    void anOccurrenceBeforeThePushIsNotRun() {
        assertThat(CronClaim.toClaim(EVERY_MINUTE, OptionalLong.empty(), at("2024-03-05T10:00:45Z"), at("2024-03-05T10:00:30Z")))
                .isEmpty();
    }

    @Test
    void aClaimedOccurrenceIsNotClaimedAgain() {
        long occ = at("2024-03-05T10:01:00Z");
        assertThat(CronClaim.toClaim(EVERY_MINUTE, OptionalLong.of(occ), at("2024-03-05T10:01:20Z"), 0)).isEmpty();
        // a record from a node whose clock runs ahead: never run an occurrence older than it
        assertThat(CronClaim.toClaim(EVERY_MINUTE, OptionalLong.of(occ + 60_000), at("2024-03-05T10:01:20Z"), 0)).isEmpty();
    }

    @Test
    void afterAnOutageOnlyTheLatestMissedOccurrenceRuns() {
        // last run 07:00; the fleet was down until 10:20: one catch-up, for 10:00, not 08:00 and 09:00 too
        assertThat(CronClaim.toClaim(HOURLY, OptionalLong.of(at("2024-03-05T07:00:00Z")), at("2024-03-05T10:20:00Z"), 0))
                .hasValue(at("2024-03-05T10:00:00Z"));
        // then nothing until 11:00
        assertThat(CronClaim.toClaim(HOURLY, OptionalLong.of(at("2024-03-05T10:00:00Z")), at("2024-03-05T10:59:59Z"), 0)).isEmpty();
        assertThat(CronClaim.toClaim(HOURLY, OptionalLong.of(at("2024-03-05T10:00:00Z")), at("2024-03-05T11:00:00Z"), 0))
                .hasValue(at("2024-03-05T11:00:00Z"));
    }
}
