package dev.cellgate.js.graal.bindings;

import dev.cellgate.js.graal.support.HostedCellsConformance;
import java.nio.file.Path;

/**
 * D1 against workerd: the fixture {@code src/test/resources/conformance-d1} runs its cases in order
 * on miniflare (its D1 simulator) and on cellgate's engine with the fleet's D1 provider, whose
 * databases are cells on the real cell host ({@code HostedCells}: ownership in a file bucket, real
 * SQLite, the output gate); every answer must be the same bytes, error cases included. Without
 * miniflare: a failure under {@code CI=true}, else no tests.
 */
class D1ConformanceTest extends HostedCellsConformance {
    D1ConformanceTest() {
        super(Path.of("src/test/resources/conformance-d1"), 60);
    }
}
