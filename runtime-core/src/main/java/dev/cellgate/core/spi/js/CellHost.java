package dev.cellgate.core.spi.js;

/** What the host offers a Durable Object besides {@link InstanceHost}: its own storage. */
public interface CellHost extends InstanceHost {

    /** The cell's storage, synchronous, usable only on {@link #executor()}. */
    CellStorage storage();

    /** The cell's hibernatable WebSockets, kept by the host ({@code ctx.acceptWebSocket}). */
    default HibernatableSockets webSockets() {
        throw new UnsupportedOperationException("this host keeps no hibernatable WebSockets");
    }

    /**
     * Point-in-time recovery (SPEC §22, {@code storage.getCurrentBookmark()}): the bookmark of the
     * state at the end of the current turn. Completes on the cell's executor.
     */
    default java.util.concurrent.CompletableFuture<String> currentBookmark() {
        return java.util.concurrent.CompletableFuture.failedFuture(new UnsupportedOperationException(
                "storage.getCurrentBookmark() (point-in-time recovery) is not available on this host"));
    }

    /** {@code storage.getBookmarkForTime(ms)}: the bookmark of the state at that time. */
    default java.util.concurrent.CompletableFuture<String> bookmarkForTime(long timeMs) {
        return java.util.concurrent.CompletableFuture.failedFuture(new UnsupportedOperationException(
                "storage.getBookmarkForTime() (point-in-time recovery) is not available on this host"));
    }

    /**
     * {@code storage.onNextSessionRestoreBookmark(b)}: records that the next activation restores
     * {@code bookmark}; completes with the bookmark that undoes it (the state before the request).
     */
    default java.util.concurrent.CompletableFuture<String> restoreOnNextSession(String bookmark) {
        return java.util.concurrent.CompletableFuture.failedFuture(new UnsupportedOperationException(
                "storage.onNextSessionRestoreBookmark() (point-in-time recovery) is not available on this host"));
    }

    /**
     * {@code ctx.abort(reason)}: ends the object's session. The running turn's writes are thrown away
     * (as on workerd, everything the aborting event wrote since its last real I/O), and once the events
     * in flight have failed with {@code cause} (the engine fails them) the cell leaves this node's
     * memory, so the next event activates it afresh: a new instance on the stored state, where a pending
     * {@code onNextSessionRestoreBookmark} takes effect. Call on {@link #executor()}, inside the turn.
     */
    default void abort(Throwable cause) {
        throw new UnsupportedOperationException("this host cannot end a Durable Object's session (ctx.abort())");
    }
}
