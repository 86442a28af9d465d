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
        return startup.future().thenCompose(b -> warmUpRequest());
    }

    /**
     * One request through the runtime's request and response code (not the Worker's handler: it
     * would be a side effect), so its parsing and first runs are paid before traffic arrives.
     */
    private CompletableFuture<Void> warmUpRequest() {
        HttpRequestData warm = new HttpRequestData("GET", "http://warm-up.invalid/", java.util.List.of(java.util.Map.entry("x-warm", "1")),
                dev.cellgate.core.spi.js.Body.EMPTY, "warm-up");
        FetchEvent event = new FetchEvent(instance, runtime::functions, warm.requestId(), "warm-up request");
        instance.runTurn(event, () -> runtime.functions().dispatchWarmUp().executeVoid(event, warm.method(), warm.url(),
                HeaderLines.encode(warm.headers()), BodyArgs.kindOf(warm.body()), BodyArgs.valueOf(instance, event, warm.body())));
        return event.future().thenCompose(r -> drained(r.body()));
    }

    /** Reads a body to its end (a streamed one holds the instance's event open until read). */
    private static CompletableFuture<Void> drained(dev.cellgate.core.spi.js.Body body) {
        if (!(body instanceof dev.cellgate.core.spi.js.Body.Stream stream)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        stream.publisher().subscribe(new java.util.concurrent.Flow.Subscriber<>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(java.nio.ByteBuffer item) {
            }

            @Override
            public void onError(Throwable e) {
                done.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        return done;
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
