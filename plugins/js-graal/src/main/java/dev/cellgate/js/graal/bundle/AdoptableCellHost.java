package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.HibernatableSockets;
import java.util.concurrent.CompletableFuture;

/**
 * The host of a pooled Durable Object context ({@link CellPool}): set up (runtime and module
 * evaluation) before any cell exists, then adopted by the cell that takes it. Until then tasks
 * queue, stub calls are refused ({@link AdoptableHost}) and there is no storage and no
 * hibernatable WebSockets; afterwards all of them (and point-in-time recovery) are the adopting
 * cell host's.
 */
final class AdoptableCellHost extends AdoptableHost implements CellHost {

    @Override
    public CellStorage storage() {
        return cell().storage();
    }

    @Override
    public HibernatableSockets webSockets() {
        return cell().webSockets();
    }

    @Override
    public CompletableFuture<String> currentBookmark() {
        return cell().currentBookmark();
    }

    @Override
    public CompletableFuture<String> bookmarkForTime(long timeMs) {
        return cell().bookmarkForTime(timeMs);
    }

    @Override
    public CompletableFuture<String> restoreOnNextSession(String bookmark) {
        return cell().restoreOnNextSession(bookmark);
    }

    @Override
    public void abort(Throwable cause) {
        cell().abort(cause);
    }

    private CellHost cell() {
        if (target instanceof CellHost c) {
            return c;
        }
        throw new IllegalStateException("a pooled Durable Object context has no storage before a cell adopts it");
    }
}
