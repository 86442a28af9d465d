package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * Holds a response (or RPC result) that follows a write until the write is durable in the
 * bucket. A response produced while the turn still has uncommitted writes waits for that turn's
 * commit; otherwise for the last commit. Replication completes commits in order, so waiting for
 * the latest covers every earlier one. Used only on the cell's executor. Public so the protocol
 * simulator decides acknowledgements with this very class.
 */
public final class OutputGate {
    private final boolean enabled;
    private CompletableFuture<Void> openTurn;
    private CompletableFuture<Void> lastCommit = CompletableFuture.completedFuture(null);

    /** @param enabled false with {@code CELLD_OUTPUT_GATE=0}: acknowledge on local commit (may lose acknowledged writes) */
    public OutputGate(boolean enabled) {
        this.enabled = enabled;
    }

    /** What a response produced now must wait for. */
    public CompletableFuture<Void> barrier(boolean turnHasWrites) {
        if (!enabled) {
            return CompletableFuture.completedFuture(null);
        }
        if (turnHasWrites) {
            if (openTurn == null) {
                openTurn = new CompletableFuture<>();
            }
            return openTurn;
        }
        return lastCommit;
    }

    /** The turn's writes were committed locally; {@code durable} completes when they are in the bucket. */
    public void committed(CompletableFuture<Void> durable) {
        lastCommit = durable;
        CompletableFuture<Void> waiting = openTurn;
        openTurn = null;
        if (waiting != null) {
            durable.whenComplete((v, e) -> {
                if (e == null) {
                    waiting.complete(null);
                } else {
                    waiting.completeExceptionally(e);
                }
            });
        }
    }

    /**
     * The turn's writes are gone (commit failed, cell reset): whoever waits on them fails. The open
     * turn's writes were never handed to replication, so they fail as not durable whatever the cause
     * (even one whose outcome is unknown for earlier commits); later results keep the cause itself.
     */
    public void lost(Throwable cause) {
        CompletableFuture<Void> waiting = openTurn;
        openTurn = null;
        lastCommit = CompletableFuture.failedFuture(cause);
        if (waiting != null) {
            waiting.completeExceptionally(new IllegalStateException("the turn's writes were never committed: "
                    + Errors.rootMessage(cause)));
        }
    }

    /** Everything committed so far (the final flush before a release waits on it). */
    public CompletableFuture<Void> lastCommit() {
        return lastCommit;
    }
}
