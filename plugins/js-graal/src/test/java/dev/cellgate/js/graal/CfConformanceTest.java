package dev.cellgate.js.graal;

import dev.cellgate.core.logic.RequestCf;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential harness for {@code request.cf} ({@code src/test/resources/conformance-cf}): each
 * request reaches cellgate's Worker with the {@code cf} the gateway builds for an HTTP/1.1 request
 * without TLS under {@code CELLD_CF_HEADERS=cloudflare} ({@link RequestCf}), and miniflare's with its
 * fixed cf object; the shape, the field types and the way cf travels with Request objects must be
 * equal, and the documented differences are asserted against our answer.
 */
class CfConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-cf");

    static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        RequestCf cf = RequestCf.parse("cloudflare");
        return Differential.casesOnWorker(engine, FIXTURE, 6, "http://127.0.0.1:9",
                r -> r.withCf(cf.json("HTTP/1.1", null, null, r.headers())));
    }
}
