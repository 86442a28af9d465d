package dev.cellgate.core.fleet;

import dev.cellgate.core.logic.WakeEntryVerdict;
import java.util.concurrent.CompletableFuture;

/**
 * What the waker asks of its host for a due wake entry (SPEC §11). The host makes sure the cell's
 * durable alarm is armed on a live node: it activates the cell on a node with capacity, or pokes the
 * live owner. Wherever the cell runs, its host then judges the entry against the cell's stored alarm
 * ({@link WakeEntryVerdict#forStoredAlarm}, once the last commit is durable) and deletes it when it
 * is stale, in order with the cell's own index writes. It completes when that is done (not when the
 * alarm has run), saying what it found. A wake may be repeated (two waker holders, a retried tick):
 * alarms are at-least-once, as on Cloudflare.
 */
@FunctionalInterface
public interface CellWaker {
    /**
     * @param scope         the entry's cell
     * @param entryMinuteMs the start of the entry's minute
     */
    CompletableFuture<WakeEntryVerdict.Reply> wake(String scope, long entryMinuteMs);
}
