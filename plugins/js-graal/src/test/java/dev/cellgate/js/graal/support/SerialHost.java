package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A host for one instance in tests: its own single-thread executor, a given stub channel, optional storage. */
public final class SerialHost implements CellHost, AutoCloseable {
    private final ExecutorService executor;
    private final StubChannel stubs;
    private final CellStorage storage;

    public SerialHost(String name, StubChannel stubs, CellStorage storage) {
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "js-" + name);
            t.setDaemon(true);
            return t;
        });
        this.stubs = stubs;
        this.storage = storage;
    }

    @Override
    public ExecutorService executor() {
        return executor;
    }

    @Override
    public StubChannel stubs() {
        return stubs;
    }

    @Override
    public CellStorage storage() {
        if (storage == null) {
            throw new IllegalStateException("this test host has no storage");
        }
        return storage;
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
