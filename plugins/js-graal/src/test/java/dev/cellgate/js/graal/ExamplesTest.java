package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** examples/counter and examples/alarm run unchanged on the real cell host (SQLite storage, alarms with retries). */
class ExamplesTest {
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    /** The Wrangler project as a deployment: name, main, compatibility_date and Durable Object bindings. */
    static ScriptBundle project(String name) throws Exception {
        Path dir = Path.of("../../examples").resolve(name);
        JsonObject config = new JsonObject(Files.readString(dir.resolve("wrangler.jsonc")).replaceAll("(?m)^\\s*//.*$", ""));
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> files = Files.walk(dir.resolve("src"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                modules.put(dir.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        Map<String, String> bindings = new HashMap<>();
        config.getJsonObject("durable_objects").getJsonArray("bindings")
                .forEach(b -> bindings.put(((JsonObject) b).getString("name"), ((JsonObject) b).getString("class_name")));
        return new ScriptBundle("example-" + name, config.getString("name"), config.getString("main"), modules, Map.of(), bindings,
                config.getString("compatibility_date"), List.of());
    }

    static String call(HostedCells.Worker w, String method, String url) throws Exception {
        HttpResponseData r = w.send(new HttpRequestData(method, url, List.of(), Body.EMPTY, url)).get(60, TimeUnit.SECONDS);
        assertThat(r.status()).as(method + " " + url).isEqualTo(200);
        return Responses.text(r);
    }

    @Test
    void countersCountWithBothStorageApisAndRpc() throws Exception {
        LoadedScript script = engine.load(project("counter"));
        try (HostedCells cells = new HostedCells(engine.vertx, script); HostedCells.Worker w = cells.worker()) {
            for (int i = 1; i <= 3; i++) {
                assertThat(call(w, "GET", "http://c.test/sql/a")).isEqualTo(String.valueOf(i));
                assertThat(call(w, "GET", "http://c.test/kv/a")).isEqualTo(String.valueOf(i));
            }
            assertThat(call(w, "GET", "http://c.test/rpc/a")).isEqualTo("4");
            assertThat(call(w, "GET", "http://c.test/sql/a?op=get")).isEqualTo("4");
            assertThat(call(w, "GET", "http://c.test/kv/b?op=get")).as("another name, another object").isEqualTo("0");
        }
    }

    @Test
    void anAlarmFiresAndIsRetriedAfterAFailure() throws Exception {
        LoadedScript script = engine.load(project("alarm"));
        try (HostedCells cells = new HostedCells(engine.vertx, script); HostedCells.Worker w = cells.worker()) {
            JsonObject scheduled = new JsonObject(call(w, "POST", "http://a.test/schedule/t?in=50&fail=1"));
            assertThat(scheduled.getLong("scheduled")).isPositive();
            JsonObject status = null;
            for (int i = 0; i < 200; i++) {
                status = new JsonObject(call(w, "GET", "http://a.test/status/t"));
                if (status.getJsonArray("runs").size() >= 2 && status.getValue("alarm") == null) {
                    break;
                }
                Thread.sleep(50);
            }
            JsonArray runs = status.getJsonArray("runs");
            assertThat(runs.size()).as("one failure, one retry: " + status).isEqualTo(2);
            assertThat(runs.getJsonObject(0).getInteger("retryCount")).isZero();
            assertThat(runs.getJsonObject(1).getBoolean("isRetry")).isTrue();
            long gap = runs.getJsonObject(1).getLong("at") - runs.getJsonObject(0).getLong("at");
            assertThat(gap).as("the first retry waits about 2 s").isBetween(1500L, 10_000L);
        }
    }
}
