package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential conformance harness for WebSockets: the fixture in
 * {@code src/test/resources/conformance-ws} runs on workerd (miniflare, through the shared
 * {@code conformance/run-miniflare.mjs}) and on cellgate, where its Durable Object lives on the
 * real cell host ({@link HostedCells}: hibernatable sockets kept by runtime-core). Status, body
 * and content type must match case by case. Without miniflare it fails under {@code CI=true} and
 * is skipped otherwise (as {@code ConformanceTest}).
 */
class WebSocketConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-ws");
    static final Path RUNNER = Path.of("src/test/resources/conformance/run-miniflare.mjs");
    static final int MIN_CASES = 8;

    static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    record Answer(int status, String contentType, String body) {
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("miniflare is not installed: run " + NpmTools.SCRIPT);
            }
            return Stream.empty();
        }
        JsonObject spec = new JsonObject(Files.readString(FIXTURE.resolve("cases.json")));
        JsonArray cases = spec.getJsonArray("cases");
        assertThat(cases.size()).as("WebSocket conformance cases").isGreaterThanOrEqualTo(MIN_CASES);
        Map<String, Answer> workerd = runOnWorkerd(miniflare);
        HostedCells cells = new HostedCells(engine.vertx, engine.load(bundle(spec)), 3_600_000);
        HostedCells.Worker worker = cells.worker();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.getJsonObject(i);
            String name = c.getString("name");
            tests.add(DynamicTest.dynamicTest(name, () -> check(c, workerd.get(name), runOnCellgate(worker, name))));
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

    private static void check(JsonObject c, Answer theirs, Answer ours) {
        String name = c.getString("name");
        assertThat(theirs).as("workerd answered " + name).isNotNull();
        if (c.containsKey("differs")) {
            assertThat(ours.body()).as(name + " (differs on purpose: " + c.getString("differs") + ")").isEqualTo(c.getString("expectOurs"));
            return;
        }
        assertThat(ours.status()).as(name + " status (workerd: " + theirs.body() + ", ours: " + ours.body() + ")").isEqualTo(theirs.status());
        assertThat(ours.body()).as(name + " body").isEqualTo(theirs.body());
        assertThat(ours.contentType()).as(name + " content-type").isEqualTo(theirs.contentType());
    }

    private static Map<String, Answer> runOnWorkerd(Path miniflare) throws IOException, InterruptedException {
        Path out = Files.createTempFile("workerd-ws-answers", ".json");
        Process p = new ProcessBuilder("node", RUNNER.toString(), miniflare.toUri().toString(), FIXTURE.toAbsolutePath().toString(),
                "http://127.0.0.1:9", out.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("miniflare run failed: " + log);
        }
        Map<String, Answer> answers = new HashMap<>();
        JsonArray results = new JsonArray(Files.readString(out));
        Files.delete(out);
        for (int i = 0; i < results.size(); i++) {
            JsonObject r = results.getJsonObject(i);
            String type = null;
            for (Object h : r.getJsonArray("headers")) {
                JsonArray pair = (JsonArray) h;
                if (pair.getString(0).equalsIgnoreCase("content-type")) {
                    type = pair.getString(1);
                }
            }
            answers.put(r.getString("name"), new Answer(r.getInteger("status"), type, r.getString("body")));
        }
        return answers;
    }

    private static Answer runOnCellgate(HostedCells.Worker worker, String name) throws Exception {
        HttpRequestData req = new HttpRequestData("GET", "http://conformance.test/case/" + name, List.of(), Body.EMPTY, "ws-" + name);
        try {
            HttpResponseData r = worker.send(req).get(120, TimeUnit.SECONDS);
            String type = r.headers().stream().filter(h -> h.getKey().equalsIgnoreCase("content-type"))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            return new Answer(r.status(), type, Responses.text(r));
        } catch (java.util.concurrent.ExecutionException e) {
            return new Answer(500, null, String.valueOf(e.getCause()));
        }
    }

    private static ScriptBundle bundle(JsonObject spec) throws IOException {
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> files = Files.list(FIXTURE)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                modules.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        Map<String, String> dos = new HashMap<>();
        spec.getJsonObject("durableObjects").forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
        return new ScriptBundle("conformance-ws", "conformance-ws", "worker.js", modules, Map.of(), dos, "2025-01-01", List.of());
    }
}
