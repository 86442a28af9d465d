package dev.cellgate.core.logic;

import com.cronutils.model.Cron;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One cron trigger in Cloudflare's syntax (SPEC §17): five fields (minute, hour, day of month,
 * month, weekday), always UTC; weekdays 1-7 with 1 = Sunday (Quartz numbering, which Cloudflare's
 * docs use: {@code 0 17 * * 1} is Sunday 17:00) or SUN-SAT; months 1-12 or JAN-DEC; names are
 * case-insensitive; {@code L}/{@code W}/{@code LW} in day-of-month and {@code L}/{@code #} in
 * weekday. Parsing and the arithmetic come from cron-utils (a proven library: hand-written
 * L/W/# arithmetic is where schedulers go wrong); this class only fixes the dialect.
 *
 * <p>Both day fields restricted ({@code 0 0 1 * MON}): cron-utils matches either day, as Unix cron
 * does. Cloudflare does not document this case.
 */
public final class CronSchedule {
    private static final CronDefinition CLOUDFLARE = CronDefinitionBuilder.defineCron()
            .withMinutes().withStrictRange().and()
            .withHours().withStrictRange().and()
            .withDayOfMonth().supportsL().supportsW().supportsLW().withStrictRange().and()
            .withMonth().withStrictRange().and()
            .withDayOfWeek().withValidRange(1, 7).withMondayDoWValue(2).supportsL().supportsHash().withStrictRange().and()
            .instance();
    private static final CronParser PARSER = new CronParser(CLOUDFLARE);

    private final String expression;
    private final ExecutionTime times;

    private CronSchedule(String expression, ExecutionTime times) {
        this.expression = expression;
        this.times = times;
    }

    /** @throws IllegalArgumentException {@code invalid cron expression "<expr>": <why>} */
    public static CronSchedule parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("invalid cron expression \"" + (expression == null ? "" : expression)
                    + "\": it is empty (5 fields: minute hour day-of-month month weekday)");
        }
        String[] fields = expression.trim().split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("invalid cron expression \"" + expression + "\": it has " + fields.length
                    + " fields, Cloudflare's cron has 5 (minute hour day-of-month month weekday)");
        }
        try {
            Cron cron = PARSER.parse(String.join(" ", fields).toUpperCase(java.util.Locale.ROOT));
            cron.validate();
            return new CronSchedule(expression, ExecutionTime.forCron(cron));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cron expression \"" + expression + "\": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid cron expression \"" + expression + "\": " + e);
        }
    }

    /** The expression as written: what {@code controller.cron} shows. */
    public String expression() {
        return expression;
    }

    /** The latest occurrence at or before {@code nowMs} (epoch ms, minute-aligned), if any. */
    public OptionalLong latestAtOrBefore(long nowMs) {
        ZonedDateTime minute = minuteOf(nowMs);
        if (times.isMatch(minute)) {
            return OptionalLong.of(minute.toInstant().toEpochMilli());
        }
        return ms(times.lastExecution(minute));
    }

    /** The first occurrence strictly after {@code ms}, if any. */
    public OptionalLong nextAfter(long ms) {
        // occurrences fall on whole minutes: the next one after the minute holding ms is after ms too
        return ms(times.nextExecution(minuteOf(ms)));
    }

    private static ZonedDateTime minuteOf(long ms) {
        return Instant.ofEpochMilli(Math.floorDiv(ms, 60_000L) * 60_000L).atZone(ZoneOffset.UTC);
    }

    private static OptionalLong ms(Optional<ZonedDateTime> t) {
        return t.map(z -> OptionalLong.of(z.toInstant().toEpochMilli())).orElse(OptionalLong.empty());
    }

    @Override
    public String toString() {
        return expression;
    }
}
