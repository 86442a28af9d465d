package dev.cellgate.js.graal.support;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * A binding's differential test whose cells run on the real cell host: one engine with the fleet's
 * providers over a file bucket of its own per test class, and the fixture's cases run in order on
 * miniflare and on that engine ({@link Differential#casesOnHostedCells}). A subclass names its
 * fixture and the fewest cases it must hold.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HostedCellsConformance {
    private final Path fixture;
    private final int minCases;
    private TestEngine engine;

    protected HostedCellsConformance(Path fixture, int minCases) {
        this.fixture = fixture;
        this.minCases = minCases;
    }

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("conformance-bucket");
        engine = new TestEngine(FleetBindings.registry(new FileBucketStore(dir.toUri().toString(), dir, false)));
    }

    @AfterAll
    void stop() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnHostedCells(engine, fixture, minCases);
    }
}
