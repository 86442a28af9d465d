package dev.cellgate.core.cell;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * WebSocket frames leaving a cell, held by the output gate like responses: each waits for the
 * barrier it was given (the writes before it), and they leave in the order they were sent — a
 * frame never overtakes an earlier one, even when its own barrier opened first. A frame whose
 * barrier failed is dropped (its writes are lost and the cell resets). Executor only.
 */
final class FrameOutbox {
    private final Executor executor;
    private final ArrayDeque<Held> held = new ArrayDeque<>();

    private record Held(CompletableFuture<Void> barrier, Runnable output) {
    }

    FrameOutbox(Executor executor) {
        this.executor = executor;
    }

    void add(CompletableFuture<Void> barrier, Runnable output) {
        if (held.isEmpty() && barrier.isDone() && !barrier.isCompletedExceptionally()) {
            output.run(); // nothing ahead of it and nothing to wait for: the common case of a read-only turn
            return;
        }
        held.add(new Held(barrier, output));
        if (held.size() == 1) {
            waitForHead();
        }
    }

    private void waitForHead() {
        held.peek().barrier().whenComplete((v, e) -> executor.execute(this::release));
    }

    private void release() {
        while (!held.isEmpty()) {
            Held h = held.peek();
            if (!h.barrier().isDone()) {
                waitForHead();
                return;
            }
            held.poll();
            if (!h.barrier().isCompletedExceptionally()) {
                h.output().run();
            }
        }
    }

    /** Frames still waiting for durability. */
    int size() {
        return held.size();
    }
}
