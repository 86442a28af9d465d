package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
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

    static TestEngine engine;
    static OriginServer origin;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
        origin = OriginServer.start(engine.vertx);
    }

    @AfterAll
    static void stop() {
        if (origin != null) {
            origin.close();
        }
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
        assertThat(cases.size()).as("conformance-web cases").isGreaterThanOrEqualTo(MIN_CASES);
        Map<String, Differential.Answer> workerd = Differential.runOnWorkerd(miniflare, FIXTURE, origin.url());
        TestWorker worker = engine.worker(Differential.bundle(FIXTURE, spec));
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.getJsonObject(i);
            String name = c.getString("name");
            tests.add(DynamicTest.dynamicTest(name, () -> Differential.check(c, workerd.get(name),
                    Differential.runOnCellgate(worker::send, c, origin.url()))));
        }
        return tests.stream().onClose(() -> {
            try {
                worker.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
