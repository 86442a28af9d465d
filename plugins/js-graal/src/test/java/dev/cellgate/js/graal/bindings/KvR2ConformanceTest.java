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
 * KV namespaces and R2 buckets against workerd: the fixture {@code src/test/resources/conformance-kv-r2}
 * runs its cases in order on miniflare (its own KV and R2 simulators) and on cellgate's engine
 * whose KV and R2 providers ({@link FleetBindings}) store in a real directory bucket, and every
 * answer must be the same bytes. Without miniflare: a failure under {@code CI=true}, else no tests.
 */
class KvR2ConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-kv-r2");
    static final int MIN_CASES = 100;

    private static Path dir;
    private static FileBucketStore bucket;
    private static TestEngine engine;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("kv-r2-bucket");
        bucket = new FileBucketStore(dir.toUri().toString(), dir, false);
        engine = new TestEngine(FleetBindings.registry(bucket));
    }

    @AfterAll
    static void stop() {
        engine.close();
        bucket.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnWorker(engine, FIXTURE, MIN_CASES, "http://127.0.0.1:9");
    }
}
