package dev.cellgate.core.fleet;

import java.util.concurrent.CompletableFuture;

/**
 * What the waker asks of its host for a cell with a due alarm (SPEC §11). The host makes sure the
 * cell's durable alarm is armed on a live node: it activates the cell on a node with capacity, or
 * pokes the live owner. It completes when that is done (not when the alarm has run); the host then
 * calls {@link WakeIndex#consumed} once the alarm's consumption is durable. A wake may be repeated
 * (two waker holders, a retried tick): alarms are at-least-once, as on Cloudflare.
 */
@FunctionalInterface
public interface CellWaker {
    CompletableFuture<Void> wake(String scope);
}
