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
 * D1 against workerd: the fixture {@code src/test/resources/conformance-d1} runs its cases in order
 * on miniflare (its D1 simulator) and on cellgate's engine with the fleet's D1 provider, whose
 * databases are cells on the real cell host ({@code HostedCells}: ownership in a file bucket, real
 * SQLite, the output gate); every answer must be the same bytes, error cases included. Without
 * miniflare: a failure under {@code CI=true}, else no tests.
 */
class D1ConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-d1");
    static final int MIN_CASES = 60;

    private static TestEngine engine;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("d1-bucket");
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
