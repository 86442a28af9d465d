package dev.cellgate.js.graal.instance;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.js.graal.JsLimits;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeoutException;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JavaScript context (a Worker or a cell) and the rules for entering it.
 *
 * <p>Threading, by construction: JavaScript runs only inside {@link #runTurn}, which the host calls
 * on {@link InstanceHost#executor()} (a serial executor), and every asynchronous result reaches the
 * context through {@link #post}, which queues a turn on that same executor. Nothing else touches
 * the {@link Context}, so it is never entered from two threads at once.
 *
 * <p>Each turn is charged to one {@link JsEvent}; the {@link TurnWatchdog} interrupts a turn whose
 * event ran over its limits. After a memory kill the context is thrown away and rebuilt on the next
 * event (its globals may hold the allocation); after a CPU kill it stays, as GraalJS leaves an
 * interrupted context usable.
 *
 * <p>New events enter through {@link #deliver} and continuations through {@link #post}; both pass
 * the {@link InputGate}, which a Durable Object's {@code blockConcurrencyWhile} closes. A failed
 * {@code blockConcurrencyWhile} {@link #breakGate breaks} the instance as on Cloudflare: every
 * event in flight fails with that error and the object is constructed afresh for the next event.
 */
public final class JsInstance {
    private static final Logger LOG = LoggerFactory.getLogger(JsInstance.class);
    /** Least CPU time a context's set-up may use, whatever the per-event budget. */
    static final long STARTUP_MIN_CPU_MS = 10_000;

    /**
     * Builds the JavaScript side of a fresh context (runtime, modules, a cell's constructor) and
     * returns what to release when that context is discarded (its timers, say).
     */
    public interface Setup {
        Runnable setUp(JsInstance instance, Context context);
    }

    private final InstanceHost host;
    private final TurnWatchdog watchdog;
    private final JsLimits limits;
    private final java.util.function.Supplier<Context> contexts;
    private final Setup setup;
    private volatile String label;
    private final Object turnLock = new Object();
    private final ArrayDeque<Runnable> afterTurn = new ArrayDeque<>();
    private final OpenEvents open = new OpenEvents();
    private final InputGate gate;

    private volatile Context context;
    private Runnable contextResources = () -> { };
    private int generation;
    private volatile Turn active;
    private boolean resetPending;
    private boolean closed;
    private Throwable broken;
    /** What broke it, for the log: a failed blockConcurrencyWhile, or ctx.abort(). */
    private String brokenWhy;
    private Runnable turnEnd = () -> { };

    public JsInstance(InstanceHost host, TurnWatchdog watchdog, JsLimits limits,
                      java.util.function.Supplier<Context> contexts, Setup setup, String label) {
        this.host = host;
        this.watchdog = watchdog;
        this.limits = limits;
        this.contexts = contexts;
        this.setup = setup;
        this.label = label;
        this.gate = new InputGate(host.executor());
    }

    public InstanceHost host() {
        return host;
    }

    public String label() {
        return label;
    }

    /** Renames the instance (a pooled context once a cell adopts it): logs and limit errors name it. */
    public void label(String label) {
        this.label = label;
    }

    /** Whether {@link #close} ran. */
    public boolean closed() {
        return closed;
    }

    /**
     * Runs a further set-up step in the context set up already (a pooled Durable Object context's
     * constructor), as set-up: the start-up CPU allowance, failure charged to {@code startup}, what
     * the step returns released with the context. If it fails the context is dropped, as when a
     * set-up fails, and the next event sets up a fresh one through the full {@code setup}.
     * Call on the executor.
     */
    public void continueSetUp(JsEvent startup, Setup step) {
        Context c = context;
        if (closed || c == null) {
            startup.fail(new IllegalStateException(label + " has no context set up to continue"));
            return;
        }
        runSetUp(startup, c, step, true);
    }

    /** Creates the context now (on the executor), charging the work to {@code startup}. */
    public void start(JsEvent startup) {
        ensureContext(startup);
    }

    /** The event whose turn is running; valid only inside a turn. */
    public JsEvent currentEvent() {
        Turn t = active;
        if (t == null) {
            throw new IllegalStateException("no JavaScript turn is running on " + label);
        }
        return t.event();
    }

    /**
     * Queues a turn for {@code event} on the instance's executor, behind the input gate; dropped if
     * the context was replaced meanwhile.
     */
    public void post(JsEvent event, Runnable body) {
        int gen = generation;
        host.executor().execute(() -> gate.enter(event, () -> {
            if (gen == generation && !closed) {
                runTurn(event, body);
            }
        }));
    }

    /** Starts a new event (fetch, RPC, alarm) now, or once the input gate opens. Call only on the executor. */
    public void deliver(JsEvent event, Runnable body) {
        gate.enter(event, () -> runTurn(event, body));
    }

    /**
     * Code to run at the end of every turn, still inside it (after its microtasks): a cell settles
     * storage transactions left open across I/O there, before the host commits the turn.
     */
    public void onTurnEnd(Runnable hook) {
        this.turnEnd = hook;
    }

    // ---- the input gate, for blockConcurrencyWhile (Durable Objects only) ----

    /** Closes the gate for the running event; returns the hold's generation (for a timeout). */
    public long holdGate() {
        return gate.hold(currentEvent());
    }

    public void releaseGate() {
        gate.release();
    }

    /** The generation of the hold in place, or -1 when the gate is open. */
    public long gateGeneration() {
        return gate.heldGeneration();
    }

    /**
     * A {@code blockConcurrencyWhile} failed: the object is broken. Every event in flight (the
     * caller's included, even if it caught the error) fails with {@code cause}; the context is
     * replaced after this turn, and the next event constructs the object again.
     */
    public void breakGate(Throwable cause) {
        breakWith(cause, "blockConcurrencyWhile() failed");
    }

    /**
     * {@code ctx.abort()}, inside a turn: the instance breaks with {@code cause} as after a failed
     * {@code blockConcurrencyWhile}, the cell host ends the session ({@link CellHost#abort}), and the
     * turn is cancelled, so no JavaScript after the call runs: not a {@code catch}, not a
     * {@code finally} (workerd: the error cannot be caught). Throws the cancellation; never returns.
     */
    public void abort(Throwable cause) {
        if (!(host instanceof CellHost cell) || active == null) {
            throw new IllegalStateException("ctx.abort() outside a Durable Object's turn");
        }
        breakWith(cause, "ctx.abort()");
        cell.abort(cause);
        context.close(true); // from the thread inside it: cancels the running code, uncatchably
        throw new IllegalStateException("ctx.abort(): the context was not cancelled"); // close(true) throws first
    }

    private void breakWith(Throwable cause, String why) {
        if (broken == null) {
            broken = cause;
            brokenWhy = why;
        }
        if (active == null) {
            finishBreak();
        }
    }

    /** The error that broke this instance during the running turn, or null. Answers turn into it. */
    public Throwable brokenBy() {
        return broken;
    }

    /** Runs {@code body} inside the context for {@code event}. Call only on the executor. */
    public void runTurn(JsEvent event, Runnable body) {
        if (closed) {
            event.fail(new IllegalStateException(label + " is closed"));
            return;
        }
        if (event.killed()) {
            stopped(event, event.killedBy()); // the stop landed between turns: nothing was interrupted
            finishTurn(); // a memory stop replaces the context now, as after an interrupted turn
            return;
        }
        if (!ensureContext(event)) {
            return;
        }
        Turn turn = new Turn(Thread.currentThread().threadId(), event,
                ThreadResources.currentCpuNanos(), ThreadResources.currentAllocatedBytes());
        synchronized (turnLock) {
            active = turn;
        }
        watchdog.turnStarted(this);
        try {
            body.run();
        } catch (PolyglotException e) {
            onTurnError(event, e);
        } catch (RuntimeException e) {
            event.fail(e);
        } finally {
            endOfTurn(event);
            watchdog.turnEnded(this);
            synchronized (turnLock) {
                active = null;
            }
            event.cpuNanos += ThreadResources.currentCpuNanos() - turn.cpuStart();
            event.allocatedBytes += ThreadResources.currentAllocatedBytes() - turn.allocStart();
            if (event.killed()) {
                stopped(event, event.killedBy()); // stopped as the turn left JavaScript: no exception came
            }
            finishTurn();
        }
    }

    /** The turn-end hook, inside the turn; it runs whether or not the turn's body threw. */
    private void endOfTurn(JsEvent event) {
        try {
            turnEnd.run();
        } catch (PolyglotException e) {
            onTurnError(event, e);
        } catch (RuntimeException e) {
            event.fail(e);
        }
    }

    private void onTurnError(JsEvent event, PolyglotException e) {
        LimitExceededException limit = event.killedBy();
        if (limit != null && (e.isInterrupted() || e.isCancelled())) {
            stopped(event, limit);
            return;
        }
        if (broken != null && e.isCancelled()) {
            event.fail(broken); // ctx.abort() cancelled the turn: its error is the outcome
            return;
        }
        event.fail(JsErrors.from(e));
    }

    /**
     * Ends an event the watchdog stopped, once, wherever the stop was noticed: the interrupted
     * turn's exception, or the event's next turn when the stop landed while no JavaScript ran (the
     * interrupt then had nothing to interrupt, and without this the event was never answered).
     */
    private void stopped(JsEvent event, LimitExceededException limit) {
        if (event.stopHandled) {
            return;
        }
        event.stopHandled = true;
        LOG.atWarn().setMessage("js.event.stopped").addKeyValue("instance", label).addKeyValue("js_event", event.label())
                .addKeyValue("request_id", event.requestId()).addKeyValue("reason", limit.getMessage()).log();
        event.fail(limit);
        while (event.holds > 0) {
            open.release(event);
        }
        if (limit.memory()) {
            resetPending = true;
        }
    }

    /**
     * Defers work (settling a host future, signalling a subscriber) until the running turn has left
     * the context, so host code never runs nested inside JavaScript. Outside a turn it runs now.
     */
    public void afterTurn(Runnable r) {
        if (active == null) {
            r.run();
        } else {
            afterTurn.add(r);
        }
    }

    private void drainAfterTurn() {
        Runnable r;
        while ((r = afterTurn.poll()) != null) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("js.after_turn.failed").addKeyValue("instance", label).addKeyValue("error", e.toString()).log();
            }
        }
    }

    private void finishTurn() {
        drainAfterTurn();
        if (broken != null) {
            finishBreak();
        } else if (resetPending) {
            resetPending = false;
            replaceContext("an event exceeded the memory limit", null);
        }
    }

    private void finishBreak() {
        Throwable cause = broken;
        resetPending = false;
        gate.clear();
        replaceContext(brokenWhy + ": " + cause.getMessage(), cause);
        broken = null;
    }

    private boolean ensureContext(JsEvent event) {
        if (context != null) {
            return true;
        }
        Context c = contexts.get();
        context = c;
        return runSetUp(event, c, setup, false);
    }

    /** {@code step} in {@code c}; {@code further}: the context was set up before (its resources are kept and added to). */
    private boolean runSetUp(JsEvent event, Context c, Setup step, boolean further) {
        // Set-up (runtime scripts, module evaluation, a cell's constructor) has its own, larger
        // CPU allowance: on the interpreter it can take longer than a tight per-request budget.
        StartupEvent startup = new StartupEvent(event);
        Turn turn = new Turn(Thread.currentThread().threadId(), startup,
                ThreadResources.currentCpuNanos(), ThreadResources.currentAllocatedBytes());
        synchronized (turnLock) {
            active = turn;
        }
        watchdog.turnStarted(this);
        try {
            Runnable resources = step.setUp(this, c);
            if (further) {
                Runnable before = contextResources;
                contextResources = () -> {
                    try {
                        resources.run();
                    } finally {
                        before.run();
                    }
                };
            } else {
                contextResources = resources;
            }
            return true;
        } catch (PolyglotException e) {
            onTurnError(startup, e);
        } catch (RuntimeException e) {
            event.fail(e);
        } finally {
            endOfTurn(startup);
            watchdog.turnEnded(this);
            synchronized (turnLock) {
                active = null;
            }
            drainAfterTurn();
            if (broken != null && context == c) {
                finishBreak(); // the constructor's blockConcurrencyWhile failed at once
                return false;
            }
        }
        // A context whose set-up failed is unusable: drop it and try again on the next event.
        context = null;
        generation++;
        resetPending = false;
        if (further) {
            releaseResources();
        }
        c.close(true);
        return false;
    }

    /** Drops the context; its open events fail with {@code cause}, or with an error naming {@code why}. */
    private void replaceContext(String why, Throwable cause) {
        LOG.atWarn().setMessage("js.instance.replaced").addKeyValue("instance", label).addKeyValue("reason", why).log();
        Context old = context;
        context = null;
        generation++;
        gate.clear();
        releaseResources();
        open.failAll(cause != null ? cause : new IllegalStateException(label + " was replaced because " + why + "; this event could not finish"));
        if (old != null) {
            old.close(true);
        }
    }

    /** Counts the event as in flight until a matching {@link #release}. */
    public void hold(JsEvent event) {
        open.hold(event);
    }

    public void release(JsEvent event) {
        open.release(event);
    }

    /** Events still running: handlers that have not answered, pending {@code waitUntil} promises, events at the gate. */
    public int inFlight() {
        return open.inFlight();
    }

    /** Stops the running event if it is over this instance's limits (its deployment's). Called by the watchdog thread. */
    void checkLimits() {
        Turn t = active;
        if (t == null || t.event().killed()) {
            return;
        }
        JsEvent ev = t.event();
        long cpu = ev.cpuNanos + ThreadResources.cpuNanos(t.threadId()) - t.cpuStart();
        long alloc = ev.allocatedBytes + ThreadResources.allocatedBytes(t.threadId()) - t.allocStart();
        LimitExceededException reason = null;
        long budgetMs = ev instanceof StartupEvent ? Math.max(limits.cpuBudgetMs(), STARTUP_MIN_CPU_MS) : limits.cpuBudgetMs();
        if (cpu > budgetMs * 1_000_000L) {
            reason = new LimitExceededException(label + " exceeded its CPU budget of " + budgetMs
                    + " ms (" + limits.cpuBudgetSetting() + ") in " + ev.label() + "; the handler was interrupted", false);
        } else if (alloc > limits.maxEventAllocatedBytes()) {
            reason = new LimitExceededException(label + " allocated more than " + limits.maxEventAllocatedBytes()
                    + " bytes in " + ev.label() + " (allocation limit); the handler was interrupted and the instance replaced", true);
        }
        if (reason == null) {
            return;
        }
        synchronized (turnLock) {
            if (active != t) {
                return;
            }
            ev.kill(reason);
            // WebAssembly runs in Java (Chicory), which only a thread interrupt stops.
            dev.cellgate.js.graal.host.wasm.WasmCalls.interrupt(t.threadId());
            try {
                // Waits until the thread left the context: finishing the turn needs turnLock only after that.
                context.interrupt(Duration.ofSeconds(5));
            } catch (TimeoutException e) {
                LOG.atWarn().setMessage("js.interrupt.timeout").addKeyValue("instance", label).log();
            }
        }
    }

    private void releaseResources() {
        Runnable r = contextResources;
        contextResources = () -> { };
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.atWarn().setMessage("js.instance.release_failed").addKeyValue("instance", label).addKeyValue("error", e.toString()).log();
        }
    }

    /** Drops the context. Call on the executor. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        watchdog.turnEnded(this);
        generation++;
        Context c = context;
        context = null;
        gate.clear();
        releaseResources();
        open.failAll(new IllegalStateException(label + " was closed before this event finished"));
        if (c != null) {
            c.close(true);
        }
    }
}
