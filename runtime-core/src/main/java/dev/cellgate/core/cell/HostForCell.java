package dev.cellgate.core.cell;

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.HibernatableSockets;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.time.Ticker;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * What a Durable Object instance sees of its host: its executor, its storage, the stub channel,
 * the output gate for WebSocket frames and its hibernatable sockets. One per cell, shared by the
 * instances the cell constructs over its life here (a new deployment, a wake from hibernation).
 */
final class HostForCell implements CellHost {
    private final Cell cell;
    private final StubChannel stubs;
    private final Replicator replicator;
    private final Ticker clock;

    HostForCell(Cell cell, StubChannel stubs, Replicator replicator, Ticker clock) {
        this.cell = cell;
        this.stubs = stubs;
        this.replicator = replicator;
        this.clock = clock;
    }

    @Override
    public Executor executor() {
        return cell.executor;
    }

    @Override
    public CellStorage storage() {
        return cell.storage;
    }

    @Override
    public StubChannel stubs() {
        return stubs;
    }

    @Override
    public void afterDurable(Runnable output) {
        cell.afterDurable(output);
    }

    @Override
    public HibernatableSockets webSockets() {
        return cell.sockets;
    }

    // ---- point-in-time recovery (SPEC §22)

    /**
     * Runs after the current turn: the turn's writes are then committed and read by the replica, so
     * the bookmark includes them (an alarm change postpones that read past its wake entry: a
     * bookmark asked in such a turn may name the state before it).
     */
    @Override
    public CompletableFuture<String> currentBookmark() {
        return afterThisTurn(() -> replica().currentBookmark(clock.nowMs()).encode());
    }

    @Override
    public CompletableFuture<String> bookmarkForTime(long timeMs) {
        if (replicator == null || cell.replica == null) {
            return CompletableFuture.failedFuture(noHistory());
        }
        return replicator.bookmarkForTime(cell.scope, timeMs).thenApply(Bookmark::encode);
    }

    /**
     * The undo bookmark is the state before the request is written, so restoring it never brings
     * the request back; the request is a write of its own turn, replicated like any other, and the
     * next activation carries it out ({@link CellActivation}).
     */
    @Override
    public CompletableFuture<String> restoreOnNextSession(String bookmark) {
        Bookmark target;
        try {
            target = Bookmark.parse(bookmark);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (replicator == null || cell.replica == null) {
            return CompletableFuture.failedFuture(noHistory());
        }
        // Checked first: a request the next activation could not carry out would stop every activation.
        return replicator.checkRestorable(cell.scope, target).thenCompose(ok -> afterThisTurn(() -> {
            String undo = replica().currentBookmark(clock.nowMs()).encode();
            cell.storage.requestRestore(target.encode());
            return undo;
        }));
    }

    private CellReplica replica() {
        if (replicator == null || cell.replica == null) {
            throw noHistory();
        }
        return cell.replica;
    }

    private static UnsupportedOperationException noHistory() {
        return new UnsupportedOperationException("point-in-time recovery needs a replicator: this node keeps no history of its cells");
    }

    private <T> CompletableFuture<T> afterThisTurn(java.util.function.Supplier<T> step) {
        CompletableFuture<T> out = new CompletableFuture<>();
        cell.executor.execute(() -> {
            try {
                out.complete(step.get());
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        return out;
    }

    @Override
    public void abort(Throwable cause) {
        cell.abort(cause);
    }
}
