package dev.cellgate.js.graal;

import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential conformance harness for the Web platform: the fixture bundle in
 * {@code src/test/resources/conformance} runs on workerd (miniflare 4.20260730.0 on Node) and on
 * cellgate (in process, through the SPI); see {@link Differential}. Its one Durable Object runs on
 * in-memory storage; the Durable Object semantics have their own harness on the real cell host
 * ({@link DurableObjectConformanceTest}). Without miniflare the harness fails under {@code CI=true}
 * and is skipped otherwise.
 */
class ConformanceTest extends WithEngineAndOrigin {
    static final Path FIXTURE = Path.of("src/test/resources/conformance");
    static final int MIN_CASES = 40;


    /** Reports a missing reference runtime as a skipped test with the fix, or a failure on CI. */
    @org.junit.jupiter.api.Test
    void workerdReferenceIsInstalled() {
        if (NpmTools.miniflare() == null && "true".equals(System.getenv("CI"))) {
            fail(Differential.MISSING);
        }
        Assumptions.assumeTrue(NpmTools.miniflare() != null, Differential.MISSING);
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnWorker(engine, FIXTURE, MIN_CASES, origin.url());
    }
}
