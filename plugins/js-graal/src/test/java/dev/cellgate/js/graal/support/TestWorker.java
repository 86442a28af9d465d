package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.WorkerInstance;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** One Worker instance on its own executor; events are delivered on that executor, as the SPI requires. */
public final class TestWorker implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    public final LoadedScript script;
    public final LocalCells cells;
    public final SerialHost host;
    public final WorkerInstance worker;

    TestWorker(LoadedScript script) {
        this.script = script;
        this.cells = new LocalCells(script);
        this.host = new SerialHost("worker", cells, null);
        this.worker = script.newWorker(host);
    }

    public CompletableFuture<HttpResponseData> send(HttpRequestData request) {
        return CompletableFuture.supplyAsync(() -> worker.fetch(request), host.executor()).thenCompose(f -> f);
    }

    public HttpResponseData fetch(String method, String url, List<Map.Entry<String, String>> headers, byte[] body) throws Exception {
        return send(new HttpRequestData(method, url, headers, Body.of(body), "req-" + IDS.incrementAndGet())).get(60, TimeUnit.SECONDS);
    }

    public HttpResponseData get(String url) throws Exception {
        return fetch("GET", url, List.of(), null);
    }

    public String text(String url) throws Exception {
        HttpResponseData r = get(url);
        return new String(Responses.bytes(r.body()), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        host.executor().submit(worker::close).get();
        host.close();
        cells.close();
    }
}
