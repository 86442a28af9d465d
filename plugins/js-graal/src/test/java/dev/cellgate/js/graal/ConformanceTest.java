package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import dev.cellgate.core.spi.js.Body;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential conformance harness: the fixture bundle in {@code src/test/resources/conformance}
 * runs on workerd (miniflare 4.20260730.0 on Node) and on cellgate (in process, through the SPI),
 * and every case of {@code cases.json} must answer the same status, body and headers — except
 * the cases marked {@code differs}, which are asserted against their documented expectation.
 * Without miniflare the harness fails under {@code CI=true} and is skipped otherwise.
 */
class ConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance");
    static final int MIN_CASES = 40;

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

    record Answer(int status, Map<String, List<String>> headers, String body) {
    }

    static final String MISSING = "miniflare is not installed: run " + NpmTools.SCRIPT + " (the differential conformance harness needs it)";

    /** Reports a missing reference runtime as a skipped test with the fix, or a failure on CI. */
    @org.junit.jupiter.api.Test
    void workerdReferenceIsInstalled() {
        if (NpmTools.miniflare() == null && "true".equals(System.getenv("CI"))) {
            fail(MISSING);
        }
        Assumptions.assumeTrue(NpmTools.miniflare() != null, MISSING);
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(MISSING);
            }
            return Stream.empty();
        }
        JsonObject spec = new JsonObject(Files.readString(FIXTURE.resolve("cases.json")));
        JsonArray cases = spec.getJsonArray("cases");
        assertThat(cases.size()).as("conformance cases").isGreaterThanOrEqualTo(MIN_CASES);
        Map<String, Answer> workerd = runOnWorkerd(miniflare);
        TestWorker worker = engine.worker(bundle(spec));
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.getJsonObject(i);
            String name = c.getString("name");
            tests.add(DynamicTest.dynamicTest(name, () -> check(c, workerd.get(name), runOnCellgate(worker, c))));
        }
        return tests.stream().onClose(() -> {
            try {
                worker.close();
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
        assertThat(ours.status()).as(name + " status (workerd body: " + theirs.body() + ", ours: " + ours.body() + ")").isEqualTo(theirs.status());
        if (c.getBoolean("statusOnly", false)) {
            return;
        }
        assertThat(ours.body()).as(name + " body").isEqualTo(theirs.body());
        List<String> compared = new ArrayList<>(List.of("content-type"));
        c.getJsonArray("headers", new JsonArray()).forEach(h -> compared.add((String) h));
        for (String h : compared) {
            assertThat(ours.headers().get(h)).as(name + " header " + h).isEqualTo(theirs.headers().get(h));
        }
    }

    private static Map<String, Answer> runOnWorkerd(Path miniflare) throws IOException, InterruptedException {
        Path out = Files.createTempFile("workerd-answers", ".json");
        Process p = new ProcessBuilder("node", FIXTURE.resolve("run-miniflare.mjs").toString(), miniflare.toUri().toString(),
                FIXTURE.toAbsolutePath().toString(), origin.url(), out.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("miniflare run failed (exit " + p.exitValue() + "): " + log);
        }
        Map<String, Answer> answers = new HashMap<>();
        JsonArray results = new JsonArray(Files.readString(out));
        Files.delete(out);
        for (int i = 0; i < results.size(); i++) {
            JsonObject r = results.getJsonObject(i);
            List<Map.Entry<String, String>> headers = new ArrayList<>();
            r.getJsonArray("headers").forEach(h -> {
                JsonArray pair = (JsonArray) h;
                headers.add(Map.entry(pair.getString(0), pair.getString(1)));
            });
            answers.put(r.getString("name"), new Answer(r.getInteger("status"), combine(headers), r.getString("body")));
        }
        return answers;
    }

    private static Answer runOnCellgate(TestWorker worker, JsonObject c) throws Exception {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        c.getJsonObject("requestHeaders", new JsonObject()).forEach(e -> headers.add(Map.entry(e.getKey().toLowerCase(Locale.ROOT), (String) e.getValue())));
        headers.add(Map.entry("x-origin", origin.url()));
        String body = c.getString("body");
        String url = "http://conformance.test/case/" + c.getString("name") + c.getString("path", "");
        HttpRequestData req = new HttpRequestData(c.getString("method", "GET"), url, headers,
                body == null ? Body.EMPTY : Body.of(body.getBytes(StandardCharsets.UTF_8)), "conformance-" + c.getString("name"));
        try {
            HttpResponseData r = worker.send(req).get(60, TimeUnit.SECONDS);
            return new Answer(r.status(), combine(r.headers()), Responses.text(r));
        } catch (java.util.concurrent.ExecutionException e) {
            // The gateway answers a failed event with 500.
            return new Answer(500, Map.of(), String.valueOf(e.getCause()));
        }
    }

    /** Header values by lower-case name, joined by ", " as Headers.get does; set-cookie kept one per cookie. */
    static Map<String, List<String>> combine(List<Map.Entry<String, String>> headers) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers) {
            String k = h.getKey().toLowerCase(Locale.ROOT);
            List<String> values = out.computeIfAbsent(k, x -> new ArrayList<>());
            if (k.equals("set-cookie") || values.isEmpty()) {
                values.add(h.getValue());
            } else {
                values.set(0, values.get(0) + ", " + h.getValue());
            }
        }
        return out;
    }

    private static ScriptBundle bundle(JsonObject spec) throws IOException {
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> files = Files.walk(FIXTURE)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                modules.put(FIXTURE.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        Map<String, String> vars = new HashMap<>();
        spec.getJsonObject("vars").forEach(e -> vars.put(e.getKey(), (String) e.getValue()));
        Map<String, String> dos = new HashMap<>();
        spec.getJsonObject("durableObjects").forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
        return new ScriptBundle("conformance", "conformance", "worker.js", modules, vars, dos, "2025-01-01", List.of());
    }
}
