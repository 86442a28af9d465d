package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential harness for the Cache API: the fixture in {@code src/test/resources/conformance-cache}
 * puts, matches and deletes on workerd (miniflare's local cache, through the shared
 * {@code conformance/run-miniflare.mjs}) and on cellgate's node cache, and every probe's answer —
 * status, reason, headers but the put's date, body, or the error — must be equal
 * ({@link Differential}). Without miniflare it fails under {@code CI=true} and is skipped otherwise.
 */
class CacheConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-cache");
    static final int MIN_CASES = 25;

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
        return Differential.casesOnWorker(engine, FIXTURE, MIN_CASES, "http://127.0.0.1:9"); // no case fetches outbound
    }
}
