package dev.cellgate.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Which Worker requests the public listener answers 503 + Retry-After after a failed Durable Object call (issue 29). */
class RetryableCellCallsTest {
    static final CellIdentity CELL = new CellIdentity("C", "0".repeat(64), null);

    static StubChannel failing(Throwable e) {
        return new StubChannel() {
            @Override
            public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
                return e == null ? CompletableFuture.completedFuture(HttpResponseData.text(200, "ok")) : CompletableFuture.failedFuture(e);
            }

            @Override
            public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
                return e == null ? CompletableFuture.completedFuture(new byte[0]) : CompletableFuture.failedFuture(e);
            }

            @Override
            public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
                return e == null ? CompletableFuture.completedFuture(new byte[0]) : CompletableFuture.failedFuture(e);
            }

            @Override
            public CompletableFuture<Void> releaseExport(String node, String key) {
                return CompletableFuture.completedFuture(null);
            }
        };
    }

    static HttpRequestData request(String id) {
        return new HttpRequestData("GET", "http://x/", List.of(), Body.EMPTY, id);
    }

    @Test
    void onlyARetryableFailureMarksItsRequestAndAMarkIsTakenOnce() {
        RetryableCellCalls calls = new RetryableCellCalls();
        calls.watching(failing(new StubCallException("this node does not serve cells now", true, null))).fetch(CELL, request("a"));
        calls.watching(failing(new StubCallException("outcome unknown", false, null))).fetch(CELL, request("b"));
        calls.watching(failing(new IllegalStateException("a bug"))).fetch(CELL, request("c"));
        calls.watching(failing(null)).fetch(CELL, request("d"));
        assertThat(calls.take("a")).isTrue();
        assertThat(calls.take("a")).as("taken once").isFalse();
        assertThat(calls.take("b")).as("not retryable: stays a Worker error").isFalse();
        assertThat(calls.take("c")).isFalse();
        assertThat(calls.take("d")).isFalse();
        assertThat(calls.take(null)).isFalse();
    }

    @Test
    void anRpcCallIsNamedByTheRequestInTheLogContext() {
        RetryableCellCalls calls = new RetryableCellCalls();
        try (LogContext.Scope s = LogContext.enter("rpc-1", null)) {
            calls.watching(failing(new StubCallException("owner unreachable; retry", true, null))).call(CELL, "m", new byte[0]);
        }
        assertThat(calls.take("rpc-1")).isTrue();
    }

    @Test
    void marksNobodyAsksAboutAreBounded() {
        RetryableCellCalls calls = new RetryableCellCalls();
        for (int i = 0; i <= RetryableCellCalls.MAX + 10; i++) {
            calls.note("r" + i, i < 100 ? 0 : RetryableCellCalls.KEEP_MS + 1);
        }
        assertThat(calls.size()).isLessThanOrEqualTo(RetryableCellCalls.MAX);
    }

    @Test
    void aCallLostWithItsOwnerIs503ButAGateFailureOnALiveOwnerStays500() {
        RetryableCellCalls calls = new RetryableCellCalls();
        Throwable lost = dev.cellgate.core.spi.js.OutcomeUnknownException.ownerLost("C:x",
                new RuntimeException("Connection reset"));
        Throwable gate = new dev.cellgate.core.spi.js.OutcomeUnknownException("output gate failed after its segment was sent", null);
        calls.watching(failing(new java.util.concurrent.CompletionException(lost))).fetch(CELL, request("lost"));
        calls.watching(failing(gate)).fetch(CELL, request("gate"));
        calls.watching(failing(new StubCallException("owner unreachable; retry", true, null))).fetch(CELL, request("unavailable"));
        assertThat(((StubCallException) lost).retryable()).as("the Worker still sees a non-retryable error").isFalse();
        assertThat(lost.getMessage()).startsWith("Network connection lost");
        assertThat(calls.takeMark("lost")).as("lost after send: 503 + Retry-After").isEqualTo(RetryableCellCalls.Mark.OWNER_LOST);
        assertThat(calls.takeMark("gate")).as("gate failure on a live owner: stays 500").isNull();
        assertThat(calls.takeMark("unavailable")).isEqualTo(RetryableCellCalls.Mark.UNAVAILABLE);
        assertThat(RetryableCellCalls.markOf(gate)).isNull();
        assertThat(RetryableCellCalls.markOf(new IllegalStateException("a bug"))).isNull();
    }
}
