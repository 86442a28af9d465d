package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.HibernatableSockets;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.concurrent.Executor;

/**
 * What a Durable Object instance sees of its host: its executor, its storage, the stub channel,
 * the output gate for WebSocket frames and its hibernatable sockets. One per cell, shared by the
 * instances the cell constructs over its life here (a new deployment, a wake from hibernation).
 */
final class HostForCell implements CellHost {
    private final Cell cell;
    private final StubChannel stubs;

    HostForCell(Cell cell, StubChannel stubs) {
        this.cell = cell;
        this.stubs = stubs;
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

    @Override
    public void abort(Throwable cause) {
        cell.abort(cause);
    }
}
