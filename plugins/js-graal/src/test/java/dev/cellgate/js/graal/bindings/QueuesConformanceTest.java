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
 * Queues against workerd: the fixture {@code src/test/resources/conformance-queues} runs its cases in
 * order on miniflare (its queue broker, {@code queueProducers}/{@code queueConsumers}) and on
 * cellgate's engine with the fleet's queue providers, whose queues are cells on the real cell host
 * ({@code HostedCells}: real SQLite, the output gate, alarms). Producer cases compare what send() and
 * sendBatch() answer or throw; consumer cases compare the batches each queue's handler received
 * (sizes, bodies by content type, attempts, retries, delays, the dead letter queue). Cases marked
 * {@code differs} are documented in docs/queues.md. Without miniflare: a failure under {@code CI=true}, else no tests.
 */
class QueuesConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-queues");
    static final int MIN_CASES = 70;

    private static TestEngine engine;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("queues-bucket");
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
