package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential harness for WebCrypto: the fixture in {@code src/test/resources/conformance-crypto}
 * runs on workerd (miniflare, through the shared {@code conformance/run-miniflare.mjs}) and on
 * cellgate, and every case's body — one line per probe, each a result or an error's class, name and
 * message — must be equal ({@link Differential}). Without miniflare it fails under {@code CI=true}
 * and is skipped otherwise (as {@code ConformanceTest}).
 */
class WebCryptoConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-crypto");
    static final int MIN_CASES = 60;

    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnWorker(engine, FIXTURE, MIN_CASES, "http://127.0.0.1:9"); // no case fetches outbound
    }
}
