package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.NpmTools;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cron triggers' {@code scheduled(controller, env, ctx)} (issue 21 item 6) on workerd (miniflare's
 * {@code getWorker().scheduled()}, {@code run-scheduled.mjs}) and on cellgate, same bundle: what
 * the controller, env and ctx look like, that the event ends only after its waitUntil, the outcome
 * of a throwing handler, and of a Worker with no scheduled handler. Without miniflare: failure
 * under {@code CI=true}, else the workerd side is skipped and only cellgate's is checked.
 */
class ScheduledConformanceTest {
    static final Path RUNNER = Path.of("src/test/resources/conformance/run-scheduled.mjs");
    static final JsonArray EVENTS = new JsonArray()
            .add(new JsonObject().put("cron", "*/5 * * * *").put("scheduledTime", 1709632800000L))
            .add(new JsonObject().put("cron", "59 23 LW * *").put("scheduledTime", 1709769540000L));
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @Test
    void theHandlerSeesWhatWorkerdShowsIt() throws Exception {
        JsonObject ours = onCellgate(Path.of("src/test/resources/conformance-scheduled"), EVENTS);
        JsonObject theirs = onWorkerd(Path.of("src/test/resources/conformance-scheduled"), EVENTS);
        JsonObject seen = new JsonObject(ours.getString("observed")).getJsonArray("seen").getJsonObject(0);
        assertThat(seen.getString("cron")).isEqualTo("*/5 * * * *");
        assertThat(seen.getLong("scheduledTime")).isEqualTo(1709632800000L);
        assertThat(new JsonObject(ours.getString("observed")).getInteger("waitedFor")).isEqualTo(1);
        assertThat(ours.getJsonArray("outcomes").getList()).containsExactly("ok", "exception");
        if (theirs != null) {
            assertThat(new JsonObject(ours.getString("observed"))).isEqualTo(new JsonObject(theirs.getString("observed")));
            assertThat(ours.getJsonArray("outcomes")).isEqualTo(theirs.getJsonArray("outcomes"));
        }
    }

    @Test
    void aWorkerWithoutAScheduledHandlerFailsTheRun() throws Exception {
        JsonArray one = new JsonArray().add(new JsonObject().put("cron", "* * * * *").put("scheduledTime", 1709632800000L));
        JsonObject ours = onCellgate(Path.of("src/test/resources/conformance-scheduled-none"), one);
        assertThat(ours.getJsonArray("outcomes").getList()).containsExactly("exception");
        assertThat(ours.getString("error")).contains("no scheduled() handler");
        JsonObject theirs = onWorkerd(Path.of("src/test/resources/conformance-scheduled-none"), one);
        if (theirs != null) {
            assertThat(ours.getJsonArray("outcomes")).isEqualTo(theirs.getJsonArray("outcomes"));
            assertThat(ours.getString("observed")).isEqualTo(theirs.getString("observed"));
        }
    }

    /** The same shape run-scheduled.mjs prints: outcomes ("ok"/"exception") and the Worker's fetch answer. */
    static JsonObject onCellgate(Path fixture, JsonArray events) throws Exception {
        JsonObject spec = new JsonObject().put("vars", new JsonObject().put("GREETING", "hello"));
        try (TestWorker w = engine.worker(Differential.bundle(fixture, spec))) {
            List<String> outcomes = new ArrayList<>();
            String error = null;
            for (int i = 0; i < events.size(); i++) {
                JsonObject e = events.getJsonObject(i);
                CompletableFuture<Void> run = CompletableFuture.supplyAsync(
                        () -> w.worker.scheduled(e.getString("cron"), e.getLong("scheduledTime")), w.host.executor()).thenCompose(f -> f);
                try {
                    run.get(30, TimeUnit.SECONDS);
                    outcomes.add("ok");
                } catch (java.util.concurrent.ExecutionException x) {
                    outcomes.add("exception");
                    error = String.valueOf(x.getCause().getMessage());
                }
            }
            return new JsonObject().put("outcomes", new JsonArray(outcomes)).put("observed", w.text("http://scheduled.test/"))
                    .put("error", error);
        }
    }

    static JsonObject onWorkerd(Path fixture, JsonArray events) throws Exception {
        Path miniflare = NpmTools.miniflare();
        if (miniflare == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(Differential.MISSING);
            }
            return null;
        }
        Process p = new ProcessBuilder("node", RUNNER.toString(), miniflare.toUri().toString(),
                fixture.resolve("worker.js").toAbsolutePath().toString(), events.encode()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("miniflare run failed (exit " + p.exitValue() + "): " + out);
        }
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        return new JsonObject(last);
    }
}
