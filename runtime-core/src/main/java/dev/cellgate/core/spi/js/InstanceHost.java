package dev.cellgate.core.spi.js;

import java.util.concurrent.Executor;

/** What the host offers every instance, Worker or Durable Object. */
public interface InstanceHost {

    /**
     * The serial executor that owns this instance. The engine enters the instance's context only
     * from tasks run here; an asynchronous result (timer, outbound fetch, stub response) is posted
     * here before it settles a promise. The host ends each task with its turn bookkeeping
     * (implicit storage commit, output gate), so the engine must not run JavaScript elsewhere.
     */
    Executor executor();

    /**
     * Runs {@code output} (a WebSocket frame leaving the instance) once every storage write made so
     * far is durable, in call order: the output gate for frames, as for responses. A Worker has no
     * storage: it runs at once. Call on {@link #executor()}.
     */
    default void afterDurable(Runnable output) {
        output.run();
    }

    /** Calls to Durable Object stubs ({@code env.NS.get(id).fetch()}, RPC). */
    StubChannel stubs();
}
