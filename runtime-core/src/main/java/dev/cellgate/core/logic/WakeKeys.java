package dev.cellgate.core.logic;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The alarm wake index {@code wake/<yyyy-MM-ddTHH:mm>/<scope>} (SPEC §4, §11), in UTC. One entry per
 * cell and minute: the waker lists {@code wake/} in key order (which is time order, the format being
 * fixed-width) and stops at the first minute still in the future.
 */
public final class WakeKeys {
    static final long MINUTE_MS = 60_000;
    /** 9999-12-31T23:59:59.999Z: a five-digit year would break the fixed width, hence the key order. */
    public static final long MAX_ALARM_MS = 253_402_300_799_999L;
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm")
            .withResolverStyle(ResolverStyle.STRICT).withZone(ZoneOffset.UTC);
    private static final Pattern SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}");

    private WakeKeys() {
    }

    /** A parsed entry: the cell has an alarm due in the minute starting at {@code minuteMs}. */
    public record WakeEntry(long minuteMs, String scope) {
    }

    /** The entry for an alarm at {@code alarmMs} (epoch milliseconds, within years 1970..9999). */
    public static String key(long alarmMs, String scope) {
        checkAlarm(alarmMs);
        if (!Scopes.isValid(scope)) {
            throw new IllegalArgumentException("invalid scope '" + scope + "' for a wake entry");
        }
        return Keys.WAKE + MINUTE.format(Instant.ofEpochMilli(alarmMs)) + "/" + scope;
    }

    /** Start of the minute holding {@code ms}. */
    public static long minuteOf(long ms) {
        checkAlarm(ms);
        return ms - Math.floorMod(ms, MINUTE_MS);
    }

    /** The key prefix of one minute, {@code wake/<minute>/}. */
    public static String minutePrefix(long ms) {
        checkAlarm(ms);
        return Keys.WAKE + MINUTE.format(Instant.ofEpochMilli(ms)) + "/";
    }

    /**
     * @return the entry, or empty for any key that is not exactly a canonical
     *         {@code wake/<yyyy-MM-ddTHH:mm>/<scope>} (including {@code wake/waker.json})
     */
    public static Optional<WakeEntry> parse(String key) {
        if (key == null || !key.startsWith(Keys.WAKE)) {
            return Optional.empty();
        }
        String rest = key.substring(Keys.WAKE.length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return Optional.empty();
        }
        String minute = rest.substring(0, slash);
        String scope = rest.substring(slash + 1);
        if (!SHAPE.matcher(minute).matches() || !Scopes.isValid(scope)) {
            return Optional.empty();
        }
        try {
            long ms = LocalDateTime.parse(minute, MINUTE).toInstant(ZoneOffset.UTC).toEpochMilli();
            return ms < 0 ? Optional.empty() : Optional.of(new WakeEntry(ms, scope));
        } catch (DateTimeParseException e) {
            return Optional.empty(); // e.g. 2024-02-30 or 25:00
        }
    }

    /**
     * Due once its minute has begun. The cell is then woken up to a minute before the alarm time;
     * its host arms the exact time locally, so an alarm never fires late by a whole minute.
     */
    public static boolean isDue(WakeEntry entry, long nowMs) {
        return entry.minuteMs() <= nowMs;
    }

    /** True when an entry in minute {@code entryMinuteMs} and an alarm at {@code alarmMs} share a key. */
    public static boolean sameMinute(long entryMinuteMs, long alarmMs) {
        return minuteOf(entryMinuteMs) == minuteOf(alarmMs);
    }

    private static void checkAlarm(long ms) {
        if (ms < 0 || ms > MAX_ALARM_MS) {
            throw new IllegalArgumentException("alarm time " + ms + " is outside 1970-01-01..9999-12-31 (UTC)");
        }
    }
}
