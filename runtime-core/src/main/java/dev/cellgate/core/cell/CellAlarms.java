package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.AlarmRetry;
import dev.cellgate.core.time.Ticker;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires a resident cell's alarm. The stored alarm stays in the database until its handler
 * succeeded (at least once: a crash mid-handler leaves it armed for the next activation); a
 * throwing handler is retried as {@link AlarmRetry} says (from 2 s, doubling, up to 6 retries),
 * after which the alarm is dropped and logged. A handler that sets a new alarm keeps it.
 */
final class CellAlarms {
    private static final Logger LOG = LoggerFactory.getLogger(CellAlarms.class);

    /** Timers on the cell's event loop. */
    interface Timers {
        long schedule(long delayMs, Runnable task);

        void cancel(long id);
    }

    private final Cell cell;
    private final Timers timers;
    private final Ticker ticker;
    private long timerId = -1;
    private int retryCount;
    private boolean running;

    CellAlarms(Cell cell, Timers timers, Ticker ticker) {
        this.cell = cell;
        this.timers = timers;
        this.ticker = ticker;
    }

    /** (Re)arms the timer from the stored alarm. Executor only. */
    void rearm() {
        cancel();
        if (running) {
            return; // the handler's end decides what comes next
        }
        OptionalLong at = cell.storage.storedAlarm();
        if (at.isPresent()) {
            schedule(Math.max(0, at.getAsLong() - ticker.nowMs()), 0);
        }
    }

    void cancel() {
        if (timerId >= 0) {
            timers.cancel(timerId);
            timerId = -1;
        }
    }

    private void schedule(long delayMs, int retry) {
        timerId = timers.schedule(Math.max(1, delayMs), () -> cell.executor.execute(() -> fire(retry)));
    }

    private void fire(int retry) {
        timerId = -1;
        if (!cell.takesEvents() || running) {
            return;
        }
        OptionalLong at = cell.storage.storedAlarm();
        if (at.isEmpty() || (retry == 0 && at.getAsLong() > ticker.nowMs())) {
            rearm(); // deleted or moved later meanwhile
            return;
        }
        running = true;
        retryCount = retry;
        cell.storage.alarmStarted();
        LOG.atInfo().setMessage("alarm.fired").addKeyValue("scope", cell.scope).addKeyValue("retry_count", retry).log();
        cell.deliver(null, instance -> instance.alarm(retry, retry > 0)).whenComplete((v, e) -> cell.executor.execute(() -> finished(e)));
    }

    private void finished(Throwable error) {
        running = false;
        if (cell.isGone()) {
            return;
        }
        boolean untouched = cell.storage.alarmFinished();
        if (!untouched) {
            retryCount = 0;
            rearm(); // the handler set or deleted the alarm itself
            return;
        }
        if (error == null) {
            retryCount = 0;
            cell.storage.deleteAlarm(); // consumed; committed and made durable at this turn's end
            return;
        }
        int failed = retryCount + 1;
        java.util.OptionalLong delay = AlarmRetry.nextDelayMs(failed);
        if (delay.isEmpty()) {
            LOG.atError().setMessage("alarm.gave_up").addKeyValue("scope", cell.scope).addKeyValue("attempts", failed)
                    .addKeyValue("error", Errors.rootMessage(error)).log();
            retryCount = 0;
            cell.storage.deleteAlarm();
            return;
        }
        int next = AlarmRetry.retryCount(failed);
        LOG.atWarn().setMessage("alarm.retry").addKeyValue("scope", cell.scope).addKeyValue("retry_count", next)
                .addKeyValue("delay_ms", delay.getAsLong()).addKeyValue("error", Errors.rootMessage(error)).log();
        schedule(delay.getAsLong(), next);
    }
}
