package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.WakerLeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet dashboard in headless Chromium (Debian's, through playwright-core): a two-node fleet,
 * the page loaded from one node's internal listener, and what the page SHOWS checked: both nodes
 * live, the deployment, the waker holder, a resident cell, and a new cell appearing without a
 * reload. Saves target/dashboard.png (docs/dashboard.png is a copy of one).
 *
 * <p>Needs {@code .ci/apt-tools.sh} (chromium) and {@code .ci/npm-tools.sh} (playwright-core).
 */
class DashboardIT {
    static final Path SCRIPT = locate("src/test/js/dashboard-check.cjs");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    /** How the page writes a time: UTC, whatever the browser's zone (operators compare it with logs). */
    static final String UTC = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC";

    @TempDir
    static Path dir;
    static Fleet fleet;
    static String deployment;
    static NodeProcess a;
    static NodeProcess b;

    @BeforeAll
    static void start() throws Exception {
        assertThat(CHROMIUM).as("Debian chromium: run .ci/apt-tools.sh").isExecutable();
        assertThat(npmTools().resolve("node_modules/playwright-core/package.json")).as("playwright-core: run .ci/npm-tools.sh")
                .exists();
        fleet = Fleet.onFileBucket(dir, Map.of());
        deployment = fleet.deployCounter();
        try (BucketStore bucket = fleet.openBucket()) {
            // The waker is not the subject here: a holder record as a waker pass writes it.
            WakerLeaseRecord holder = new WakerLeaseRecord("dash-b", "s-test", System.currentTimeMillis() + 600_000);
            assertThat(bucket.put(Keys.WAKER, holder.encode()).join().written()).isTrue();
        }
        Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        nodes.put("dash-a", Map.of());
        nodes.put("dash-b", Map.of());
        Map<String, NodeProcess> started = ParallelStart.start(dir, fleet.bucketUrl, nodes);
        fleet.nodes.addAll(started.values());
        a = started.get("dash-a");
        b = started.get("dash-b");
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void thePageShowsTheFleetThisNodesCellsAndRefreshesItself() throws Exception {
        HttpResponse<String> first = NodeProcess.HTTP.send(HttpRequest.newBuilder(URI.create(a.publicUrl("/c/dashboard-first")))
                .header("X-Request-ID", "dashboard-first").timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(200);
        String firstScope = scopeActivatedBy(a, "dashboard-first");

        Path shot = Path.of("target", "dashboard.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        JsonObject seen = runPage(new JsonObject()
                .put("url", a.internalUrl("/dashboard"))
                .put("screenshot", shot.toString())
                .put("minNodes", 2)
                .put("expectScope", firstScope)
                .put("pokeUrl", a.publicUrl("/c/dashboard-second"))
                .put("timeoutMs", 90_000));

        assertThat(seen.getInteger("status")).isEqualTo(200);
        assertThat(seen.getString("csp")).contains("default-src 'none'");
        assertThat(seen.getJsonArray("foreignRequests")).as("everything is served by the node").isEmpty();
        assertThat(seen.getJsonArray("consoleErrors")).isEmpty();

        JsonObject page = seen.getJsonObject("first");
        assertThat(page.getString("self")).isEqualTo("dash-a");
        assertThat(page.getString("deployment")).isEqualTo(deployment);
        assertThat(page.getString("running")).isEqualTo(deployment);
        assertThat(page.getString("worker")).as("the Worker's name (Wrangler name)").isEqualTo("fleet");
        assertThat(page.getString("updated")).as("times are shown in UTC").matches("updated " + UTC);
        assertThat(page.getString("deploymentSince")).matches(UTC);
        java.time.Instant shown = java.time.LocalDateTime.parse(page.getString("updated").substring("updated ".length(), "updated ".length() + 19)
                .replace(' ', 'T')).toInstant(java.time.ZoneOffset.UTC);
        assertThat(Duration.between(shown, java.time.Instant.now()).abs()).as("the page's UTC time is the time in UTC")
                .isLessThan(Duration.ofMinutes(2));
        assertThat(page.getString("waker")).isEqualTo("dash-b");
        assertThat(page.getString("wakerDetail")).startsWith("holds the lease");
        assertThat(page.getString("error")).isNull();
        JsonArray nodes = page.getJsonArray("nodes");
        assertThat(nodes.stream().map(n -> ((JsonObject) n).getString("node"))).containsExactly("dash-a", "dash-b");
        for (Object o : nodes) {
            JsonObject n = (JsonObject) o;
            List<Object> cols = n.getJsonArray("columns").getList();
            assertThat(cols.get(1)).as("lease of %s", n.getString("node")).isEqualTo("live");
            assertThat(cols.get(2)).as("advertise").asString().matches("127\\.0\\.0\\.1:\\d+");
            assertThat(cols.get(6)).as("lease age").asString().matches("[0-9.]+ (ms|s|min|h)");
            assertThat(cols.get(8)).as("started").asString().matches(UTC);
            assertThat(cols.get(7)).as("expires in").asString().matches("[0-9.]+ (ms|s)");
            assertThat(n.getBoolean("self")).isEqualTo(n.getString("node").equals("dash-a"));
        }
        assertThat(page.getJsonArray("cells").stream().map(c -> ((JsonObject) c).getString("scope"))).contains(firstScope);
        JsonObject cell = page.getJsonArray("cells").stream().map(c -> (JsonObject) c)
                .filter(c -> c.getString("scope").equals(firstScope)).findFirst().orElseThrow();
        JsonArray columns = cell.getJsonArray("columns"); // name, scope, epoch, idle, last used, deployment
        assertThat(columns.getString(0)).as("the name getByName was given").isEqualTo("dashboard-first");
        assertThat(columns.getString(1)).as("scope").isEqualTo(firstScope);
        assertThat(columns.getString(2)).as("epoch").isEqualTo("1");
        assertThat(columns.getString(3)).as("idle").matches("[0-9.]+ (ms|s|min)");
        assertThat(columns.getString(4)).as("last used").matches(UTC);
        assertThat(columns.getString(5)).as("deployment").isEqualTo(deployment);
        assertThat(page.getJsonObject("counters").getString("engine")).isEqualTo("jit");
        assertThat(Integer.parseInt(page.getJsonObject("counters").getString("resident"))).isGreaterThanOrEqualTo(1);

        // The second request activated a new cell; the page listed it on its own (no reload).
        assertThat(seen.getInteger("pokeStatus")).isEqualTo(200);
        String secondScope = scopeActivatedBy(a, "dashboard-poke");
        JsonObject after = seen.getJsonObject("after");
        assertThat(after.getJsonArray("cells").stream().map(c -> ((JsonObject) c).getString("scope")))
                .contains(firstScope, secondScope);
        assertThat(after.getInteger("refreshes")).isGreaterThan(page.getInteger("refreshes"));

        byte[] png = Files.readAllBytes(shot);
        assertThat(png.length).isGreaterThan(10_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        Files.copy(shot, Path.of("target", "it-logs").toAbsolutePath().resolve("dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    static String scopeActivatedBy(NodeProcess n, String requestId) throws Exception {
        String line = n.awaitLine(l -> l.contains("\"event\":\"cell.activated\"") && l.contains("\"request_id\":\"" + requestId + "\""),
                Duration.ofSeconds(60));
        return new JsonObject(line).getString("scope");
    }

    /** Runs the Playwright driver; returns the JSON it printed. */
    static JsonObject runPage(JsonObject options) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", SCRIPT.toString(), options.encode());
        pb.environment().put("CELLGATE_NPM_TOOLS", npmTools().toString());
        pb.environment().put("TZ", "Asia/Kolkata"); // a browser far from UTC: the page must still write UTC
        Process p = pb.start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errPump = new Thread(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (java.io.IOException ignored) {
                // process gone
            }
        });
        errPump.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(4, TimeUnit.MINUTES)).as("the browser script finished").isTrue();
        errPump.join(5_000);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("dashboard-check.cjs failed:\n%s\n%s", stderr, out).isZero();
        String last = out.strip().lines().reduce((x, y) -> y).orElseThrow(() -> new AssertionError("no output; stderr:\n" + stderr));
        return new JsonObject(last);
    }

    static Path npmTools() {
        String env = System.getenv("CELLGATE_NPM_TOOLS");
        return env != null && !env.isBlank() ? Path.of(env) : locate(".ci/npm-tools");
    }

    /** A path relative to the gateway module (failsafe's working directory) or to the repository root. */
    static Path locate(String rel) {
        for (Path p : List.of(Path.of(rel), Path.of("gateway").resolve(rel), Path.of("..").resolve(rel))) {
            if (Files.exists(p)) {
                return p.toAbsolutePath().normalize();
            }
        }
        return Path.of("..").resolve(rel).toAbsolutePath().normalize();
    }
}
