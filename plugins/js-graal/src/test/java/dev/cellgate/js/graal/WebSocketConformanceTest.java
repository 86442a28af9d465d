package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential conformance harness for WebSockets: the fixture in
 * {@code src/test/resources/conformance-ws} runs on workerd (miniflare, through the shared
 * {@code conformance/run-miniflare.mjs}) and on cellgate, where its Durable Object lives on the
 * real cell host ({@code HostedCells}: hibernatable sockets kept by runtime-core). Status, body
 * and content type must match case by case ({@link Differential}). Without miniflare it fails
 * under {@code CI=true} and is skipped otherwise (as {@code ConformanceTest}).
 */
class WebSocketConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-ws");
    static final int MIN_CASES = 8;

    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnHostedCells(engine, FIXTURE, MIN_CASES);
    }
}
