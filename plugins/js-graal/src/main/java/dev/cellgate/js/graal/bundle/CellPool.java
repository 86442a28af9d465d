package dev.cellgate.js.graal.bundle;

import dev.cellgate.js.graal.instance.JsInstance;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few Durable Object contexts of one deployment, set up ahead (runtime scripts and module
 * evaluation) so that a new cell only runs its class's constructor (README, "Durable Objects",
 * "Pooled contexts"). Each context still becomes one cell's and only that cell's. Refilled in the
 * background, one context at a time, on the engine's pool thread (never a cell's thread nor an
 * event loop). Size: system property {@value #SIZE_PROPERTY} (default {@value #DEFAULT_SIZE},
 * 0 turns the pool off; any other value outside 0–16 stops the engine from starting).
 */
public final class CellPool {
    private static final Logger LOG = LoggerFactory.getLogger(CellPool.class);
    static final String SIZE_PROPERTY = "cellgate.js.cellPool";
    static final int DEFAULT_SIZE = 2;
    private static final int MAX_SIZE = 16;

    /** A context set up for a cell not yet known, its runtime, its host and its set-up. */
    record Pooled(JsInstance instance, BundleRuntime runtime, AdoptableCellHost host, GraalCellInstance.CellSetup setup) {
    }

    private final int size;
    private final Supplier<Pooled> maker;
    private final Executor refills;
    private final ConcurrentLinkedQueue<Pooled> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicBoolean filling = new AtomicBoolean();
    private volatile boolean closed;

    /** {@code maker} sets one context up on the calling thread, or answers null when that failed. */
    CellPool(int size, Supplier<Pooled> maker, Executor refills) {
        this.size = size;
        this.maker = maker;
        this.refills = refills;
    }

    /** The size {@value #SIZE_PROPERTY} asks for; read once when the engine starts, which a bad value stops. */
    public static int configuredSize() {
        return sizeFrom(System.getProperty(SIZE_PROPERTY));
    }

    /**
     * The pool size a value of {@value #SIZE_PROPERTY} asks for: unset is the default; anything but
     * an integer from 0 to {@value #MAX_SIZE} is refused by name (never clamped, never defaulted).
     */
    static int sizeFrom(String raw) {
        if (raw == null) {
            return DEFAULT_SIZE;
        }
        int n;
        try {
            n = Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > MAX_SIZE) {
            throw new IllegalArgumentException(SIZE_PROPERTY + " must be an integer from 0 to " + MAX_SIZE
                    + " (Durable Object contexts set up ahead per deployment; 0 turns the pool off), got '" + raw + "'");
        }
        return n;
    }

    /** A set-up context, or null when none is ready; starts a refill either way. */
    Pooled take() {
        Pooled p = ready.poll();
        if (p != null) {
            count.decrementAndGet();
        }
        refill();
        return p;
    }

    /** Contexts ready now. */
    int ready() {
        return count.get();
    }

    java.util.List<JsInstance> instances() {
        return ready.stream().map(Pooled::instance).toList();
    }

    /** Sets contexts up in the background until the pool is full (one fill at a time). */
    void refill() {
        if (closed || size == 0 || count.get() >= size || !filling.compareAndSet(false, true)) {
            return;
        }
        try {
            refills.execute(this::fill);
        } catch (RejectedExecutionException e) {
            filling.set(false); // the engine is closing
        }
    }

    private void fill() {
        try {
            while (!closed && count.get() < size) {
                Pooled p;
                try {
                    p = maker.get();
                } catch (RuntimeException e) {
                    p = null;
                    LOG.atWarn().setMessage("js.cell_pool.setup_failed").addKeyValue("error", e.toString()).log();
                }
                if (p == null) {
                    return; // tried again at the next take
                }
                ready.add(p);
                count.incrementAndGet();
                if (closed) {
                    drain();
                }
            }
        } finally {
            filling.set(false);
        }
    }

    /** Closes the contexts no cell took, on the calling thread (none of them is running); no more are made. */
    void close() {
        closed = true;
        drain();
    }

    private void drain() {
        Pooled p;
        while ((p = ready.poll()) != null) {
            count.decrementAndGet();
            discard(p);
        }
    }

    static void discard(Pooled p) {
        p.instance().close();
        p.host().adopt(GraalLoadedScript.CLOSED_HOST); // whatever it queued goes nowhere
    }
}
