package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.RealCells;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential harness for Durable Objects: the fixture in
 * {@code src/test/resources/conformance-do} runs on workerd (miniflare, SQLite-backed objects) and
 * on cellgate's REAL cell host — runtime-core's {@code Cells} with {@code SqliteCellStorage} files
 * in a temp dir, turn commits after every task, the output gate, alarms and their retries on real
 * timers, ownership in a file:// bucket ({@link RealCells}). Cases cover value round-trips, list
 * ranges and order, cursors, transactions, alarms firing and retrying, blockConcurrencyWhile and
 * input-gate ordering, RPC error classes. Cases marked {@code differs} are asserted against our
 * documented answer. Without miniflare: failure under {@code CI=true}, else nothing runs (see
 * {@link ConformanceTest#workerdReferenceIsInstalled}).
 */
class DurableObjectConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-do");
    static final int MIN_CASES = 30;

    static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(Differential.MISSING);
            }
            return Stream.empty();
        }
        JsonObject spec = new JsonObject(Files.readString(FIXTURE.resolve("cases.json")));
        JsonArray cases = spec.getJsonArray("cases");
        assertThat(cases.size()).as("Durable Object conformance cases").isGreaterThanOrEqualTo(MIN_CASES);
        // No outbound fetch in these cases: the origin header points nowhere.
        String origin = "http://127.0.0.1:9";
        Map<String, Differential.Answer> workerd = Differential.runOnWorkerd(miniflare, FIXTURE, origin);
        LoadedScript script = engine.load(Differential.bundle(FIXTURE, spec));
        RealCells cells = new RealCells(engine.vertx, script);
        RealCells.HostedWorker worker = cells.worker();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.getJsonObject(i);
            String name = c.getString("name");
            tests.add(DynamicTest.dynamicTest(name, () -> Differential.check(c, workerd.get(name),
                    Differential.runOnCellgate(worker::send, c, origin))));
        }
        return tests.stream().onClose(() -> {
            try {
                worker.close();
                cells.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
