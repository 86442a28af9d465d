package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.concurrent.Executor;

/** What a Durable Object instance sees of its host: its executor, its storage, the stub channel. */
record HostForCell(Executor executor, CellStorage storage, StubChannel stubs) implements CellHost {
}
