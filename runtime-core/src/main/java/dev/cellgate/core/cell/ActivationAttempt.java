package dev.cellgate.core.cell;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The race between one activation and its deadline ({@code CELLD_ACTIVATION_DEADLINE_MS}):
 * whichever comes first decides, exactly once. Once abandoned, the restore the activation waits on
 * is cancelled (it stops reading the bucket and writes no database) and the late work stops at its
 * next step ({@link #enter}), gives the cell back and installs nothing.
 */
final class ActivationAttempt {
    private enum State { RUNNING, FINISHED, ABANDONED }

    private final String scope;
    /** False only in the deliberately broken variant (tests): the late work carries on as if nothing happened. */
    private final boolean stopsLateWork;
    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private volatile CompletableFuture<?> waitingOn;
    private volatile String stage = "queued";
    /** Each stage entered and when (System.nanoTime), for the activation's phase timeline in its log line. */
    private final java.util.List<String> stages = new java.util.ArrayList<>();
    private final java.util.List<Long> stageStarts = new java.util.ArrayList<>();

    ActivationAttempt(String scope, boolean stopsLateWork) {
        this.scope = scope;
        this.stopsLateWork = stopsLateWork;
    }

    /** The deadline passed. True when it came first: the activation is abandoned (then call {@link #stopWaiting}). */
    boolean abandon() {
        return state.compareAndSet(State.RUNNING, State.ABANDONED);
    }

    /** Cancels the step the abandoned activation waits on (its restore), if any. */
    void stopWaiting() {
        CompletableFuture<?> w = waitingOn;
        if (w != null && stopsLateWork) {
            w.cancel(false);
        }
    }

    /** The activation ended (either way). True when before the deadline: its result stands. */
    boolean finish() {
        return state.compareAndSet(State.RUNNING, State.FINISHED);
    }

    boolean abandoned() {
        return state.get() == State.ABANDONED;
    }

    /** Where the activation was (for the log line of an abandoned one). */
    String stage() {
        return stage;
    }

    /** The activation starts {@code next}; throws when it was abandoned (the late work stops here). */
    void enter(String next) {
        stage = next;
        synchronized (stages) {
            stages.add(next);
            stageStarts.add(System.nanoTime());
        }
        if (abandoned() && stopsLateWork) {
            throw new Abandoned(scope, next);
        }
    }

    /**
     * How long each stage entered so far took, up to {@code endNanos}: "acquire=1.2 restore=0.4 ..."
     * in milliseconds (the activation's phase timeline, issue 22).
     */
    String phases(long endNanos) {
        StringBuilder b = new StringBuilder();
        synchronized (stages) {
            for (int i = 0; i < stages.size(); i++) {
                long end = i + 1 < stages.size() ? stageStarts.get(i + 1) : endNanos;
                if (b.length() > 0) {
                    b.append(' ');
                }
                b.append(stages.get(i).replace(' ', '_')).append('=')
                        .append(String.format(java.util.Locale.ROOT, "%.1f", (end - stageStarts.get(i)) / 1e6));
            }
        }
        return b.toString();
    }

    /** A step the deadline cancels (the restore): cancelled at once when the attempt is already abandoned. */
    <T> CompletableFuture<T> cancellable(CompletableFuture<T> step) {
        waitingOn = step;
        if (abandoned() && stopsLateWork) {
            step.cancel(false);
        }
        String during = stage;
        return step.exceptionallyCompose(e -> CompletableFuture.failedFuture(
                step.isCancelled() && abandoned() ? new Abandoned(scope, "the end of the " + during + ", which was cancelled") : e));
    }

    /** The late work of an abandoned activation stopped before {@code stage}. */
    static final class Abandoned extends dev.cellgate.core.spi.js.StubCallException {
        Abandoned(String scope, String stage) {
            super("activation of cell " + scope + " was abandoned at its deadline, before " + stage, true, null);
        }
    }
}
