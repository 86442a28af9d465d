package dev.cellgate.js.graal.instance;

/**
 * One event delivered to an instance (a fetch, an RPC call, an alarm, or the instance's own
 * start-up), with the resources it used so far. Every turn of JavaScript runs on behalf of exactly
 * one event: the one that scheduled it (a timer, a fetch response, a stream chunk), so CPU time
 * and allocation are charged to the request that caused them.
 *
 * <p>Fields are touched on the instance's executor, except {@link #kill} which the watchdog sets.
 */
public abstract class JsEvent {
    private final String requestId;
    private final String label;
    long cpuNanos;
    /** The watchdog's stop has been turned into this event's failure (executor only). */
    boolean stopHandled;
    long allocatedBytes;
    private volatile LimitExceededException killed;
    int holds;
    private java.util.List<Runnable> endHooks;
    private boolean ended;
    private boolean passesGate;

    protected JsEvent(String requestId, String label) {
        this.requestId = requestId;
        this.label = label;
    }

    public String requestId() {
        return requestId;
    }

    /** What the event is, for error messages: {@code fetch GET https://…}, {@code rpc increment}. */
    public String label() {
        return label;
    }

    public boolean killed() {
        return killed != null;
    }

    LimitExceededException killedBy() {
        return killed;
    }

    void kill(LimitExceededException reason) {
        if (killed == null) {
            killed = reason;
        }
    }

    /**
     * Runs {@code hook} once the event is over: answered and nothing of it in flight any more (its
     * {@code waitUntil} promises settled), or failed with its instance. At once if it is over already.
     * RPC sessions end here (the stubs an event received are released). Call on the executor.
     */
    public void whenEnded(Runnable hook) {
        if (ended) {
            hook.run();
            return;
        }
        if (endHooks == null) {
            endHooks = new java.util.ArrayList<>(2);
        }
        endHooks.add(hook);
    }

    /** Whether {@link #whenEnded} hooks have run. */
    public boolean ended() {
        return ended;
    }

    void end() {
        if (ended) {
            return;
        }
        ended = true;
        java.util.List<Runnable> hooks = endHooks;
        endHooks = null;
        if (hooks != null) {
            for (Runnable h : hooks) {
                h.run();
            }
        }
    }

    /**
     * Lets this event (and its continuations) through the instance's input gate: a service binding's
     * call into this Worker is a request of its own, not an event of the Durable Object whose context
     * happens to run it, so that object's {@code blockConcurrencyWhile} does not hold it (on workerd
     * it runs beside the object, in the same isolate). Set before the event is delivered.
     */
    public void passGate() {
        passesGate = true;
    }

    boolean passesGate() {
        return passesGate;
    }

    /** Settles the event's future with an error (the JS error, a limit, a reset); later settlements are ignored. */
    public abstract void fail(Throwable error);
}
