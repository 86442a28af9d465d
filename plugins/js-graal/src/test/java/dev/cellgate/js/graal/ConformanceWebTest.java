package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.DatedWorkers;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.OriginServer;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential harness for the rest of the Web platform (SPEC §16): the fixture bundle in
 * {@code src/test/resources/conformance-web} (FormData/File/Blob, compression and text streams,
 * backpressure-correct streams, BYOB readers, FixedLengthStream, URLPattern, navigator, performance,
 * scheduler, self, MessageChannel, EventSource) runs on workerd (miniflare 4.20260730.0) and on
 * cellgate at the fixture's compatibility date, and every case must answer the same bytes; see
 * {@link Differential}. Outbound requests (EventSource, uploads) go to a real {@link OriginServer}.
 * Without miniflare the harness fails under {@code CI=true} and is skipped otherwise.
 */
class ConformanceWebTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-web");
    static final int MIN_CASES = 70;

    @RegisterExtension
    static final DatedWorkers WORKERS = new DatedWorkers();

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnWorker(WORKERS.engine(), FIXTURE, MIN_CASES, WORKERS.origin().url());
    }
}
