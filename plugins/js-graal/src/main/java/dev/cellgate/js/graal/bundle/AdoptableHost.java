package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The host of the instance that loads a deployment (the load probe), which then becomes the first
 * Worker instead of being thrown away: a new context costs a runtime and module evaluation, the
 * slowest part of a cold start. Until a real host {@link #adopt adopts} it, tasks posted to it wait
 * in a queue (nothing may run JavaScript on another thread) and stub calls are refused.
 * {@link AdoptableCellHost} does the same for a pooled Durable Object context.
 */
class AdoptableHost implements InstanceHost {
    private final List<Runnable> queued = new ArrayList<>();
    volatile InstanceHost target;

    @Override
    public Executor executor() {
        return this::execute;
    }

    private void execute(Runnable task) {
        synchronized (queued) {
            if (target == null) {
                queued.add(task);
                return;
            }
        }
        target.executor().execute(task);
    }

    @Override
    public void afterDurable(Runnable output) {
        InstanceHost t = target;
        if (t != null) {
            t.afterDurable(output);
        } else {
            output.run();
        }
    }

    @Override
    public StubChannel stubs() {
        InstanceHost t = target;
        return t != null ? t.stubs() : REFUSE;
    }

    /** From now on the instance runs on {@code host}; what was queued meanwhile goes there, in order. */
    void adopt(InstanceHost host) {
        List<Runnable> pending;
        synchronized (queued) {
            target = host;
            pending = List.copyOf(queued);
            queued.clear();
        }
        pending.forEach(host.executor()::execute);
    }

    private static final StubChannel REFUSE = new StubChannel() {
        @Override
        public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
            return CompletableFuture.failedFuture(new StubCallException("stub calls are not available while a deployment loads", false, null));
        }

        @Override
        public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
            return CompletableFuture.failedFuture(new StubCallException("stub calls are not available while a deployment loads", false, null));
        }

        @Override
        public CompletableFuture<Void> releaseExport(String node, String key) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
            return CompletableFuture.failedFuture(new StubCallException("stub calls are not available while a deployment loads", false, null));
        }
    };
}
