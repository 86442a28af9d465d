package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.WorkerInstance;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Java stand-in for a deployment, to test the cell host without a JavaScript engine: each cell
 * keeps a counter in its real SQLite storage; a request whose URL ends in {@code hang} never
 * answers (an event in flight), one ending in {@code wait} answers when the test completes it
 * from {@link #waiting}; {@code /alarm/<epoch ms>} sets the cell's alarm ({@code /alarm/none} deletes
 * it) and answers the stored value; the constructor is counted per scope; answers start with the
 * deployment's {@code prefix}, so a test sees which code served it.
 */
final class FakeScript implements LoadedScript {
    final Map<String, AtomicInteger> constructed = new ConcurrentHashMap<>();
    final java.util.concurrent.BlockingQueue<CompletableFuture<HttpResponseData>> waiting = new java.util.concurrent.LinkedBlockingQueue<>();
    volatile long constructMs;
    /** When set, a constructor waits for it to open (a constructor that takes as long as the test wants). */
    volatile java.util.concurrent.CountDownLatch constructGate;
    private final String prefix;

    FakeScript() {
        this("");
    }

    FakeScript(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public ScriptBundle bundle() {
        return new ScriptBundle("d-test", "fake", "index.js", Map.of("index.js", ""), Map.of(), Map.of("C", "C"), "2025-01-01", List.of());
    }

    @Override
    public Set<String> exportedClasses() {
        return Set.of("C");
    }

    @Override
    public WorkerInstance newWorker(InstanceHost host) {
        throw new UnsupportedOperationException("no Worker in this fake");
    }

    @Override
    public CellInstance newCell(String className, CellIdentity id, CellHost host) {
        if (constructMs > 0) {
            try {
                Thread.sleep(constructMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        java.util.concurrent.CountDownLatch gate = constructGate;
        if (gate != null) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        constructed.computeIfAbsent(id.scope(), k -> new AtomicInteger()).incrementAndGet();
        host.storage().sql("CREATE TABLE IF NOT EXISTS n (v INTEGER)", null);
        return new CellInstance() {
            @Override
            public CompletableFuture<HttpResponseData> fetch(HttpRequestData request) {
                if (request.url().endsWith("hang")) {
                    return new CompletableFuture<>();
                }
                int alarm = request.url().indexOf("/alarm/");
                if (alarm >= 0) {
                    String at = request.url().substring(alarm + "/alarm/".length());
                    if (at.equals("none")) {
                        host.storage().deleteAlarm();
                    } else {
                        host.storage().setAlarm(Long.parseLong(at));
                    }
                    return CompletableFuture.completedFuture(HttpResponseData.text(200, String.valueOf(host.storage().getAlarm())));
                }
                if (request.url().endsWith("wait")) {
                    CompletableFuture<HttpResponseData> answer = new CompletableFuture<>();
                    waiting.add(answer);
                    return answer;
                }
                host.storage().sql("INSERT INTO n VALUES (1)", null);
                Object count = host.storage().sql("SELECT count(*) FROM n", null).rows().get(0)[0];
                return CompletableFuture.completedFuture(HttpResponseData.text(200, prefix + count));
            }

            @Override
            public CompletableFuture<byte[]> call(String method, byte[] arguments) {
                return CompletableFuture.failedFuture(new UnsupportedOperationException(method));
            }

            @Override
            public CompletableFuture<Void> alarm(int retryCount, boolean isRetry) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public int eventsInFlight() {
                return 0;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void close() {
    }
}
