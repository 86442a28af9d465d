package dev.cellgate.js.graal.instance;

/**
 * The set-up of a context (runtime scripts, module evaluation, a cell's constructor), on behalf of
 * the event that needed it: it has its own, larger CPU allowance, and its failure is that event's.
 */
final class StartupEvent extends JsEvent {
    private final JsEvent cause;

    StartupEvent(JsEvent cause) {
        super(cause.requestId(), "start-up (runtime and module evaluation) for " + cause.label());
        this.cause = cause;
    }

    @Override
    public void fail(Throwable error) {
        cause.fail(error);
    }
}
