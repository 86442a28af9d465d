package dev.cellgate.core.worker;

import io.vertx.core.Context;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.concurrent.TimeUnit;

/**
 * The threads JavaScript runs on, apart from the event loops that carry the network I/O (SPEC §18,
 * issue 29). Each Durable Object and each stateless lane gets an ordered context of its own on
 * this one pool: its tasks run one at a time, in order, on whichever pool thread is free. A
 * handler spinning in {@code while(true){}} therefore holds one pool thread until its CPU budget
 * stops it; the event loops keep reading and writing sockets, and every other object's tasks
 * run on the other threads.
 *
 * <p>Why ordered worker contexts rather than pinned JS loops that move their neighbours away when
 * one turn stays too long: with a context per object, no object ever has a neighbour, so there is
 * nothing to detect and nothing to move; and Vert.x timers, HTTP-client answers and blocking calls
 * made from such a context come back to it, as they came back to the event loop before.
 */
public final class JsThreads {
    /** Name of the pool's threads in thread dumps and JFR recordings. */
    public static final String POOL_NAME = "cellgate-js";

    private final VertxInternal vertx;
    private final io.vertx.core.internal.WorkerPool pool;
    private final int size;

    /**
     * @param size         threads of the pool: this many handlers may spin at once before others queue
     * @param longestTurnMs the longest a JavaScript turn may legitimately run (the CPU budget):
     *                     Vert.x's blocked-thread warning fires only past it
     */
    public JsThreads(Vertx vertx, int size, long longestTurnMs) {
        if (size < 1) {
            throw new IllegalArgumentException("the JavaScript pool needs at least one thread, not " + size);
        }
        this.vertx = (VertxInternal) vertx;
        this.size = size;
        this.pool = this.vertx.createSharedWorkerPool(POOL_NAME, size, Math.max(2_000L, longestTurnMs) + 2_000L, TimeUnit.MILLISECONDS);
    }

    /** The pool size a node uses unless CELLD_JS_THREADS says otherwise: room for a few runaways beside the traffic. */
    public static int defaultSize(int cores) {
        return Math.max(8, 4 * cores);
    }

    /** A new ordered context on the pool: one object's (or one lane's) serial executor. */
    public Context newContext() {
        return vertx.contextBuilder().withThreadingModel(ThreadingModel.WORKER).withWorkerPool(pool).build();
    }

    public int size() {
        return size;
    }
}
