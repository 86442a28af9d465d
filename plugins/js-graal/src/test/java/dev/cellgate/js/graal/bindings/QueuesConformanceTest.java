package dev.cellgate.js.graal.bindings;

import dev.cellgate.js.graal.support.HostedCellsConformance;
import java.nio.file.Path;

/**
 * Queues against workerd: the fixture {@code src/test/resources/conformance-queues} runs its cases in
 * order on miniflare (its queue broker, {@code queueProducers}/{@code queueConsumers}) and on
 * cellgate's engine with the fleet's queue providers, whose queues are cells on the real cell host
 * ({@code HostedCells}: real SQLite, the output gate, alarms). Producer cases compare what send() and
 * sendBatch() answer or throw; consumer cases compare the batches each queue's handler received
 * (sizes, bodies by content type, attempts, retries, delays, the dead letter queue). Cases marked
 * {@code differs} are documented in docs/queues.md. Without miniflare: a failure under {@code CI=true}, else no tests.
 */
class QueuesConformanceTest extends HostedCellsConformance {
    QueuesConformanceTest() {
        super(Path.of("src/test/resources/conformance-queues"), 70);
    }
}
