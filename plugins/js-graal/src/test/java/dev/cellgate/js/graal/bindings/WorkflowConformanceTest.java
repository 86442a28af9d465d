package dev.cellgate.js.graal.bindings;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Workflows against workerd: the fixture {@code src/test/resources/conformance-workflows} runs its
 * cases in order on miniflare (its Workflows engine) and on cellgate's engine with the fleet's
 * workflow provider, whose instances are cells on the real cell host ({@code HostedCells}: ownership
 * in a file bucket, real SQLite, the output gate, alarms); every answer must be the same bytes —
 * the binding API, step semantics (memoized results, retries, backoff, timeouts, NonRetryableError,
 * sleeps, events, pause/resume/terminate/restart), error cases included. Without miniflare: a
 * failure under {@code CI=true}, else no tests.
 */
class WorkflowConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-workflows");
    static final int MIN_CASES = 51;

    private static TestEngine engine;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("workflow-bucket");
        engine = new TestEngine(FleetBindings.registry(new FileBucketStore(dir.toUri().toString(), dir, false)));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnHostedCells(engine, FIXTURE, MIN_CASES);
    }
}
