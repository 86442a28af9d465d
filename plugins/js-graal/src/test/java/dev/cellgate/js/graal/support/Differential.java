package dev.cellgate.js.graal.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptBundle;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The differential harness shared by the conformance tests: a fixture directory holds a Worker
 * bundle and {@code cases.json}; every case runs on workerd (miniflare, {@code run-miniflare.mjs})
 * and on cellgate, and must answer the same status, body and headers — except cases marked
 * {@code differs}, which are asserted against their documented expectation ({@code expectOurs}),
 * and cases marked {@code knownBug} (a defect outside this module, reported): while ours still
 * differs such a case is reported as aborted with the bug's description, never as passed; once it
 * matches, it fails so that the marker is removed.
 */
public final class Differential {
    public static final Path RUNNER = Path.of("src/test/resources/conformance/run-miniflare.mjs");
    public static final String MISSING = "miniflare is not installed: run " + NpmTools.SCRIPT
            + " (the differential conformance harness needs it)";

    private Differential() {
    }

    public record Answer(int status, Map<String, List<String>> headers, String body) {
    }

    /** Runs every case of {@code fixture/cases.json} on workerd; answers by case name. */
    public static Map<String, Answer> runOnWorkerd(Path miniflare, Path fixture, String originUrl)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("workerd-answers", ".json");
        Process p = new ProcessBuilder("node", RUNNER.toString(), miniflare.toUri().toString(),
                fixture.toAbsolutePath().toString(), originUrl, out.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
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

    /** Sends case {@code c} to cellgate through {@code send}; a failed event answers 500, as the gateway does. */
    public static Answer runOnCellgate(Function<HttpRequestData, CompletableFuture<HttpResponseData>> send, JsonObject c,
                                       String originUrl) throws Exception {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        c.getJsonObject("requestHeaders", new JsonObject()).forEach(e -> headers.add(Map.entry(e.getKey().toLowerCase(Locale.ROOT),
                (String) e.getValue())));
        headers.add(Map.entry("x-origin", originUrl));
        String body = c.getString("body");
        String url = "http://conformance.test/case/" + c.getString("name") + c.getString("path", "");
        HttpRequestData req = new HttpRequestData(c.getString("method", "GET"), url, headers,
                body == null ? Body.EMPTY : Body.of(body.getBytes(StandardCharsets.UTF_8)), "conformance-" + c.getString("name"));
        try {
            HttpResponseData r = send.apply(req).get(120, TimeUnit.SECONDS);
            return new Answer(r.status(), combine(r.headers()), Responses.text(r));
        } catch (java.util.concurrent.ExecutionException e) {
            return new Answer(500, Map.of(), String.valueOf(e.getCause()));
        }
    }

    /**
     * The whole harness for a fixture that runs as a Worker in process ({@link TestEngine#worker}):
     * every case of {@code fixture/cases.json} (at least {@code minCases}) on workerd and on
     * cellgate, one dynamic test per case; outbound fetches go to {@code originUrl}. Without
     * miniflare: a failure under {@code CI=true}, else no tests.
     */
    public static java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> casesOnWorker(TestEngine engine, Path fixture, int minCases,
                                                                                        String originUrl) throws Exception {
        return cases(fixture, minCases, originUrl, spec -> {
            TestWorker worker = engine.worker(bundle(fixture, spec));
            return new Target(worker::send, worker::close);
        });
    }

    /**
     * As {@link #casesOnWorker(TestEngine, Path, int, String)}, with each request passed through
     * {@code adapt} before it reaches cellgate's Worker (what the gateway adds, e.g. {@code request.cf}).
     */
    public static java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> casesOnWorker(TestEngine engine, Path fixture, int minCases,
            String originUrl, java.util.function.UnaryOperator<HttpRequestData> adapt) throws Exception {
        return cases(fixture, minCases, originUrl, spec -> {
            TestWorker worker = engine.worker(bundle(fixture, spec));
            return new Target(r -> worker.send(adapt.apply(r)), worker::close);
        });
    }

    /**
     * The whole harness for a fixture whose objects live on the real cell host: every case of
     * {@code fixture/cases.json} (at least {@code minCases}) on workerd and on a Worker over
     * {@link HostedCells}, one dynamic test per case. Without miniflare: a failure under
     * {@code CI=true}, else no tests. No case fetches outbound: the origin points nowhere.
     */
    public static java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> casesOnHostedCells(TestEngine engine, Path fixture,
                                                                                             int minCases) throws Exception {
        return cases(fixture, minCases, "http://127.0.0.1:9", spec -> {
            HostedCells cells = new HostedCells(engine.vertx, engine.load(bundle(fixture, spec)));
            HostedCells.Worker worker = cells.worker();
            return new Target(worker::send, () -> {
                worker.close();
                cells.close();
            });
        });
    }

    /**
     * {@link #casesOnHostedCells} on an engine of its own, closed with the cases: the whole of a
     * conformance test class that needs nothing else.
     */
    public static java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> casesOnOwnHostedCells(Path fixture, int minCases)
            throws Exception {
        TestEngine engine = new TestEngine();
        try {
            return casesOnHostedCells(engine, fixture, minCases).onClose(engine::close);
        } catch (Exception | Error e) {
            engine.close();
            throw e;
        }
    }

    /** Where cellgate's side of the cases runs, and how to close it once all of them have. */
    private record Target(Function<HttpRequestData, CompletableFuture<HttpResponseData>> send, AutoCloseable closer) {
    }

    private interface TargetFactory {
        Target open(JsonObject spec) throws Exception;
    }

    private static java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> cases(Path fixture, int minCases, String originUrl,
                                                                                 TargetFactory factory) throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(MISSING);
            }
            return java.util.stream.Stream.empty();
        }
        JsonObject spec = new JsonObject(Files.readString(fixture.resolve("cases.json")));
        JsonArray cases = spec.getJsonArray("cases");
        assertThat(cases.size()).as("conformance cases in " + fixture).isGreaterThanOrEqualTo(minCases);
        Map<String, Answer> workerd = runOnWorkerd(miniflare, fixture, originUrl);
        Target target = factory.open(spec);
        List<org.junit.jupiter.api.DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.getJsonObject(i);
            String name = c.getString("name");
            tests.add(org.junit.jupiter.api.DynamicTest.dynamicTest(name,
                    () -> check(c, workerd.get(name), runOnCellgate(target.send(), c, originUrl))));
        }
        return tests.stream().onClose(() -> {
            try {
                target.closer().close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The comparison of one case. */
    public static void check(JsonObject c, Answer theirs, Answer ours) {
        String name = c.getString("name");
        assertThat(theirs).as("workerd answered " + name).isNotNull();
        if (c.containsKey("knownBug")) {
            boolean same = theirs.status() == ours.status() && theirs.body().equals(ours.body());
            if (same) {
                fail(name + " now answers like workerd: the known bug is fixed, remove its knownBug marker (" + c.getString("knownBug") + ")");
            }
            org.junit.jupiter.api.Assumptions.abort("known bug, reported: " + c.getString("knownBug") + " — workerd: " + theirs.body()
                    + " — ours: " + ours.body());
        }
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

    private static ScriptBundle typedBundle(Path fixture, JsonObject spec) throws IOException {
        JsonObject rules = spec.getJsonObject("modules");
        Map<String, dev.cellgate.core.spi.js.BundleModule> files = new java.util.TreeMap<>();
        try (Stream<Path> walk = Files.walk(fixture)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                String rel = fixture.relativize(f).toString().replace('\\', '/');
                dev.cellgate.core.spi.js.ModuleType type = rel.endsWith(".js") ? dev.cellgate.core.spi.js.ModuleType.ES_MODULE : null;
                for (String glob : rules.fieldNames()) {
                    if (rel.endsWith(glob.replaceFirst("^\\*\\*/\\*", ""))) {
                        type = dev.cellgate.core.spi.js.ModuleType.byWranglerName(rules.getString(glob));
                    }
                }
                if (type != null) {
                    files.put(rel, new dev.cellgate.core.spi.js.BundleModule(type, Files.readAllBytes(f)));
                }
            }
        }
        Map<String, String> vars = new HashMap<>();
        spec.getJsonObject("vars", new JsonObject()).forEach(e -> vars.put(e.getKey(), (String) e.getValue()));
        Map<String, String> dos = new HashMap<>();
        spec.getJsonObject("durableObjects", new JsonObject()).forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
        return ScriptBundle.of(fixture.getFileName().toString(), fixture.getFileName().toString(), "worker.js", files, vars, dos,
                spec.getString("compatibilityDate", "2025-01-01"), flags(spec)).withBindings(envBindings(spec));
    }

    /** Header values by lower-case name, joined by ", " as Headers.get does; set-cookie kept one per cookie. */
    public static Map<String, List<String>> combine(List<Map.Entry<String, String>> headers) {
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

    /** {@code kvNamespaces} / {@code r2Buckets} / {@code d1Databases} of cases.json ({@code {BINDING: id or bucket name}}, as miniflare takes them). */
    static List<dev.cellgate.core.spi.js.EnvBinding> envBindings(JsonObject spec) {
        List<dev.cellgate.core.spi.js.EnvBinding> out = new ArrayList<>();
        spec.getJsonObject("kvNamespaces", new JsonObject()).forEach(e -> out.add(new dev.cellgate.core.spi.js.EnvBinding(e.getKey(),
                "kv_namespace", new JsonObject().put("namespace_id", e.getValue()))));
        spec.getJsonObject("r2Buckets", new JsonObject()).forEach(e -> out.add(new dev.cellgate.core.spi.js.EnvBinding(e.getKey(),
                "r2_bucket", new JsonObject().put("bucket_name", e.getValue()))));
        spec.getJsonObject("d1Databases", new JsonObject()).forEach(e -> out.add(new dev.cellgate.core.spi.js.EnvBinding(e.getKey(),
                "d1", new JsonObject().put("database_id", e.getValue()))));
        spec.getJsonObject("workflows", new JsonObject()).forEach(e -> out.add(new dev.cellgate.core.spi.js.EnvBinding(e.getKey(),
                "workflow", new JsonObject().put("workflow_name", ((JsonObject) e.getValue()).getString("name"))
                        .put("class_name", ((JsonObject) e.getValue()).getString("className")))));
        out.addAll(QueueBindings.of(spec));
        return out;
    }

    /** {@code services} of cases.json ({@code {BINDING: {entrypoint?, props?}}}): service bindings to the fixture's own Worker. */
    static List<dev.cellgate.core.spi.js.EnvBinding> serviceBindings(String workerName, JsonObject spec) {
        List<dev.cellgate.core.spi.js.EnvBinding> out = new ArrayList<>();
        spec.getJsonObject("services", new JsonObject()).forEach(e -> out.add(new dev.cellgate.core.spi.js.EnvBinding(e.getKey(),
                "service", ((JsonObject) e.getValue()).copy().put("service", workerName))));
        return out;
    }

    /** {@code compatibilityFlags} of cases.json (none when absent). */
    static List<String> flags(JsonObject spec) {
        List<String> flags = new ArrayList<>();
        spec.getJsonArray("compatibilityFlags", new JsonArray()).forEach(f -> flags.add((String) f));
        return flags;
    }

    /**
     * The fixture as a deployment: every .js file a module, main module worker.js, vars and bindings from cases.json.
     * With {@code "modules": {"**}{@code /*.ext": "<Wrangler type>"}} in cases.json, every file with such an
     * extension is a module of that type (run-miniflare.mjs gives workerd the same list).
     */
    public static ScriptBundle bundle(Path fixture, JsonObject spec) throws IOException {
        if (spec.containsKey("modules")) {
            return typedBundle(fixture, spec);
        }
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> files = Files.walk(fixture)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                modules.put(fixture.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        Map<String, String> vars = new HashMap<>();
        spec.getJsonObject("vars", new JsonObject()).forEach(e -> vars.put(e.getKey(), (String) e.getValue()));
        Map<String, String> dos = new HashMap<>();
        spec.getJsonObject("durableObjects", new JsonObject()).forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
        List<dev.cellgate.core.spi.js.EnvBinding> bindings = new ArrayList<>(envBindings(spec));
        bindings.addAll(serviceBindings(fixture.getFileName().toString(), spec));
        return new ScriptBundle(fixture.getFileName().toString(), fixture.getFileName().toString(), "worker.js", modules, vars, dos,
                spec.getString("compatibilityDate", "2025-01-01"), flags(spec)).withBindings(bindings);
    }
}
