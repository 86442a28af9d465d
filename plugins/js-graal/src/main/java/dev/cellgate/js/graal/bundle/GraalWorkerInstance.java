package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.host.BodyArgs;
import dev.cellgate.js.graal.host.HeaderLines;
import dev.cellgate.js.graal.instance.FetchEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import java.util.concurrent.CompletableFuture;

/** A stateless Worker: one context running the module's {@code export default { fetch }}. */
final class GraalWorkerInstance implements WorkerInstance {
    private final JsInstance instance;
    private final BundleRuntime runtime;

    GraalWorkerInstance(JsInstance instance, BundleRuntime runtime) {
        this.instance = instance;
        this.runtime = runtime;
    }

    @Override
    public CompletableFuture<Void> start() {
        ResultEvent startup = new ResultEvent(instance, null, "module evaluation ahead of the first request");
        try {
            instance.start(startup);
        } catch (RuntimeException e) {
            startup.fail(e); // the engine closed, say
        }
        if (!startup.future().isDone()) {
            startup.done();
        }
        return startup.future().thenApply(b -> null);
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(HttpRequestData request) {
        FetchEvent event = new FetchEvent(instance, runtime::functions, request.requestId(), "fetch " + request.method() + " " + request.url());
        instance.runTurn(event, () -> runtime.functions().dispatchFetch().executeVoid(event, request.method(), request.url(),
                HeaderLines.encode(request.headers()), BodyArgs.kindOf(request.body()), BodyArgs.valueOf(instance, event, request.body()),
                request.cf()));
        return event.future();
    }

    @Override
    public CompletableFuture<Void> scheduled(String cron, long scheduledTimeMs) {
        ResultEvent event = new ResultEvent(instance, null, "scheduled " + cron);
        instance.runTurn(event, () -> runtime.functions().dispatchScheduled().executeVoid(event, cron, (double) scheduledTimeMs));
        return event.future().thenApply(b -> null);
    }

    /** Handlers and {@code waitUntil} promises still running (for draining). */
    @Override
    public int eventsInFlight() {
        return instance.inFlight();
    }

    @Override
    public void close() {
        instance.close();
    }
}
