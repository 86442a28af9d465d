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
 * The differential harness for HTMLRewriter: the fixture in {@code src/test/resources/conformance-html}
 * streams each case's input through HTMLRewriter on workerd (miniflare, through the shared
 * {@code conformance/run-miniflare.mjs}) and on cellgate, in the same chunks, and the rewritten bytes
 * plus everything the handlers saw must be equal ({@link Differential}). Without miniflare it fails
 * under {@code CI=true} and is skipped otherwise (as {@code ConformanceTest}).
 */
class HtmlRewriterConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-html");
    static final int MIN_CASES = 50;

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
