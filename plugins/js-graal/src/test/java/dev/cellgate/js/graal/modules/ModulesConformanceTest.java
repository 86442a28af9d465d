package dev.cellgate.js.graal.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import dev.cellgate.js.graal.support.Wat;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential suite for module types (SPEC §14): {@code src/test/resources/conformance-modules}
 * holds ES modules, CommonJS, Text, Data and a CompiledWasm module (assembled here from its .wat
 * with wabt), given to workerd (miniflare's {@code modules} list with types) and to cellgate as the
 * same typed files; a second Wasm module is compiled from C with clang. Without miniflare, wat2wasm or clang: a failure under {@code CI=true}, no tests otherwise.
 */
class ModulesConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-modules");
    static final int MIN_CASES = 30;

    static TestEngine engine;
    static Path built;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() throws Exception {
        engine.close();
        if (built != null) {
            try (Stream<Path> s = Files.walk(built)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A copy of the fixture with every .wat assembled into the .wasm beside it. */
    static Path build() throws Exception {
        Path out = Files.createTempDirectory("conformance-modules");
        try (Stream<Path> s = Files.walk(FIXTURE)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Path to = out.resolve(FIXTURE.relativize(f).toString());
                Files.createDirectories(to.getParent());
                if (f.toString().endsWith(".wat")) {
                    Wat.assembleFile(f, Path.of(to.toString().replaceAll("\\.wat$", ".wasm")));
                } else if (f.toString().endsWith(".c")) {
                    Wat.compileC(f, Path.of(to.toString().replaceAll("\\.c$", ".wasm")));
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null || !Wat.available() || !Wat.clangAvailable()) {
            if ("true".equals(System.getenv("CI"))) {
                fail(miniflare == null ? Differential.MISSING : !Wat.available() ? Wat.MISSING : Wat.CLANG_MISSING);
            }
            return Stream.empty();
        }
        built = build();
        JsonObject spec = new JsonObject(Files.readString(built.resolve("cases.json")));
        JsonArray cases = spec.getJsonArray("cases");
        assertThat(cases.size()).as("module conformance cases").isGreaterThanOrEqualTo(MIN_CASES);
        String origin = "http://127.0.0.1:9";
        Map<String, Differential.Answer> workerd = Differential.runOnWorkerd(miniflare, built, origin);
        TestWorker worker = engine.worker(Differential.bundle(built, spec));
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
