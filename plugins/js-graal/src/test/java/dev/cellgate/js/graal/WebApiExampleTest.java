package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** examples/webapi runs unchanged on cellgate. */
class WebApiExampleTest {
    static final Path EXAMPLE = Path.of("../../examples/webapi");
    static TestEngine engine;
    static TestWorker worker;

    @BeforeAll
    static void start() throws Exception {
        // The wrangler.jsonc subset this example uses: name, main, vars (comments stripped).
        String jsonc = Files.readString(EXAMPLE.resolve("wrangler.jsonc")).replaceAll("(?m)^\\s*//.*$", "");
        JsonObject config = new JsonObject(jsonc);
        Map<String, String> modules = new HashMap<>();
        try (Stream<Path> files = Files.walk(EXAMPLE.resolve("src"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                modules.put(EXAMPLE.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        Map<String, String> vars = new HashMap<>();
        config.getJsonObject("vars").forEach(e -> vars.put(e.getKey(), (String) e.getValue()));
        engine = new TestEngine();
        worker = engine.worker(new ScriptBundle("example", config.getString("name"), config.getString("main"), modules, vars, Map.of(),
                config.getString("compatibility_date"), List.of()));
    }

    @AfterAll
    static void stop() throws Exception {
        worker.close();
        engine.close();
    }

    @Test
    void everyRouteAnswers() throws Exception {
        assertThat(worker.text("http://example.test/")).contains("/crypto", "/stream");
        assertThat(worker.text("http://example.test/url")).contains("\"pathname\":\"/b\"", "\"sorted\":\"x=1&y=2\"");
        assertThat(worker.text("http://example.test/crypto?text=abc"))
                .contains("\"sha256\":\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"", "\"verified\":true");
        assertThat(worker.text("http://example.test/encoding?text=h%C3%A9")).contains("\"bytes\":[104,195,169]");
        assertThat(worker.text("http://example.test/clone")).contains("\"big\":\"1180591620717411303424\"", "[\"RangeError\",\"kept\"]");
        assertThat(worker.text("http://example.test/stream?n=3")).isEqualTo("chunk 0\nchunk 1\nchunk 2\n");
        assertThat(worker.text("http://example.test/timers")).contains("\"first\":\"microtask\"", "\"reason\":\"TimeoutError\"");
        assertThat(worker.get("http://example.test/nope").status()).isEqualTo(404);
    }

    @Test
    void aBodyStreamsBackThroughATransform() throws Exception {
        HttpResponseData r = worker.send(new HttpRequestData("POST", "http://example.test/upper", List.of(),
                Body.of("shout this".getBytes(StandardCharsets.UTF_8)), "up")).get(30, TimeUnit.SECONDS);
        assertThat(Responses.text(r)).isEqualTo("SHOUT THIS");
    }
}
