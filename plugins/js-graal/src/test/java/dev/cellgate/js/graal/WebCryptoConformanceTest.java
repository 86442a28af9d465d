package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
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
 * The differential harness for WebCrypto: the fixture in {@code src/test/resources/conformance-crypto}
 * runs on workerd (miniflare, through the shared {@code conformance/run-miniflare.mjs}) and on
 * cellgate, and every case's body — one line per probe, each a result or an error's class, name and
 * message — must be equal ({@link Differential}). Without miniflare it fails under {@code CI=true}
 * and is skipped otherwise (as {@code ConformanceTest}).
 */
class WebCryptoConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-crypto");
    static final int MIN_CASES = 60;

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
        assertThat(cases.size()).as("WebCrypto conformance cases").isGreaterThanOrEqualTo(MIN_CASES);
        String origin = "http://127.0.0.1:9"; // no case fetches outbound
        Map<String, Differential.Answer> workerd = Differential.runOnWorkerd(miniflare, FIXTURE, origin);
        TestWorker worker = engine.worker(Differential.bundle(FIXTURE, spec));
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
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
