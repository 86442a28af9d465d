package dev.cellgate.js.graal;

import dev.cellgate.core.logic.RequestCf;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential harness for HTMLRewriter, the Cache API and {@code request.cf}: each fixture runs
 * on workerd (miniflare, through the shared {@code conformance/run-miniflare.mjs}) and on cellgate,
 * and every case's body must be equal ({@link Differential}), cases marked {@code differs} asserted
 * against our documented answer. Without miniflare it fails under {@code CI=true} and is skipped
 * otherwise (as {@code ConformanceTest}).
 *
 * <ul>
 *   <li>{@code conformance-html}: each case's input is streamed through HTMLRewriter in the same
 *   chunks on both; the rewritten bytes and everything the handlers saw are compared.</li>
 *   <li>{@code conformance-cache}: puts, matches and deletes against miniflare's local cache and the
 *   node cache; status, reason, headers but the put's date, body or error.</li>
 *   <li>{@code conformance-cf}: each request reaches cellgate's Worker with the {@code cf} the gateway
 *   builds for HTTP/1.1 without TLS under {@code CELLD_CF_HEADERS=cloudflare} ({@link RequestCf}),
 *   miniflare's with its fixed cf object.</li>
 * </ul>
 */
class EdgeApiConformanceTest {
    static final String NO_ORIGIN = "http://127.0.0.1:9"; // no case fetches outbound successfully

    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @TestFactory
    Stream<DynamicTest> htmlRewriter() throws Exception {
        return Differential.casesOnWorker(engine, Path.of("src/test/resources/conformance-html"), 50, NO_ORIGIN);
    }

    @TestFactory
    Stream<DynamicTest> cache() throws Exception {
        return Differential.casesOnWorker(engine, Path.of("src/test/resources/conformance-cache"), 25, NO_ORIGIN);
    }

    @TestFactory
    Stream<DynamicTest> requestCf() throws Exception {
        RequestCf cf = RequestCf.parse("cloudflare");
        return Differential.casesOnWorker(engine, Path.of("src/test/resources/conformance-cf"), 6, NO_ORIGIN,
                r -> r.withCf(cf.json("HTTP/1.1", null, null, r.headers())));
    }
}
