package dev.cellgate.js.graal.bindings;

import dev.cellgate.js.graal.support.HostedCellsConformance;
import java.nio.file.Path;

/**
 * Workflows against workerd: the fixture {@code src/test/resources/conformance-workflows} runs its
 * cases in order on miniflare (its Workflows engine) and on cellgate's engine with the fleet's
 * workflow provider, whose instances are cells on the real cell host ({@code HostedCells}: ownership
 * in a file bucket, real SQLite, the output gate, alarms); every answer must be the same bytes —
 * the binding API, step semantics (memoized results, retries, backoff, timeouts, NonRetryableError,
 * sleeps, events, pause/resume/terminate/restart), error cases included. Without miniflare: a
 * failure under {@code CI=true}, else no tests.
 */
class WorkflowConformanceTest extends HostedCellsConformance {
    WorkflowConformanceTest() {
        super(Path.of("src/test/resources/conformance-workflows"), 51);
    }
}
