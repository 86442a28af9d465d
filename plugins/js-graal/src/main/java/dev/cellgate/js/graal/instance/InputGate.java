package dev.cellgate.js.graal.instance;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A Durable Object's input gate (Cloudflare's "input gates"): while {@code blockConcurrencyWhile}
 * (or an async {@code storage.transaction}) holds it, no other event reaches the object — no new
 * fetch, RPC call or alarm, and no continuation (timer, fetch response, stub result) of another
 * event. Those wait here, in arrival order, and run one per executor task once the gate opens, so
 * each keeps its own turn (and the host commits between them).
 *
 * <p>Storage needs no holding: the storage API is synchronous underneath and its promises settle
 * in the microtasks of the same turn, before any queued task can run. The hold is charged to the
 * event that called {@code blockConcurrencyWhile}; work of that same event passes (the engine has
 * no finer async context), everything else waits. Used only on the instance's executor.
 */
final class InputGate {
    private final Executor executor;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private JsEvent owner;
    private int depth;
    private long holdGeneration;
    private boolean drainScheduled;

    InputGate(Executor executor) {
        this.executor = executor;
    }

    /** Runs {@code turn} now if the gate lets {@code event} in, else queues it behind the others. */
    void enter(JsEvent event, Runnable turn) {
        boolean admitted = event.passesGate() || (owner != null ? owner == event : waiting.isEmpty());
        if (admitted) {
            turn.run();
        } else {
            waiting.add(turn);
        }
    }

    /** {@code blockConcurrencyWhile} began on behalf of {@code event}; returns the hold's generation. */
    long hold(JsEvent event) {
        if (owner == null) {
            owner = event;
            holdGeneration++;
        }
        depth++;
        return holdGeneration;
    }

    /** One hold ended; the last one opens the gate and lets the waiting turns in. */
    void release() {
        if (depth == 0) {
            return;
        }
        if (--depth == 0) {
            owner = null;
            scheduleDrain();
        }
    }

    boolean held() {
        return owner != null;
    }

    /** The generation of the hold in place, or -1 when the gate is open. */
    long heldGeneration() {
        return owner == null ? -1 : holdGeneration;
    }

    /** Forgets the hold and every waiting turn (their events are failed by the instance). */
    void clear() {
        owner = null;
        depth = 0;
        waiting.clear();
    }

    private void scheduleDrain() {
        if (!drainScheduled && !waiting.isEmpty()) {
            drainScheduled = true;
            executor.execute(this::drainOne);
        }
    }

    private void drainOne() {
        drainScheduled = false;
        if (owner != null) {
            return; // closed again; the next release resumes
        }
        Runnable next = waiting.poll();
        if (next != null) {
            try {
                next.run();
            } finally {
                scheduleDrain();
            }
        }
    }
}
