package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential harness for Durable Objects: the fixture in
 * {@code src/test/resources/conformance-do} runs on workerd (miniflare, SQLite-backed objects) and
 * on cellgate's REAL cell host — runtime-core's {@code Cells} with {@code SqliteCellStorage} files
 * in a temp dir, turn commits after every task, the output gate, alarms and their retries on real
 * timers, ownership in a file:// bucket ({@code HostedCells}). Cases cover value round-trips, list
 * ranges and order, cursors, transactions, alarms firing and retrying, blockConcurrencyWhile and
 * input-gate ordering, RPC error classes. Cases marked {@code differs} are asserted against our
 * documented answer. Without miniflare: failure under {@code CI=true}, else nothing runs (see
 * {@link ConformanceTest#workerdReferenceIsInstalled}).
 */
class DurableObjectConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-do");
    static final int MIN_CASES = 30;

    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnHostedCells(engine, FIXTURE, MIN_CASES);
    }
}
