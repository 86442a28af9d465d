package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SmokeTest {
    static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void helloWorld() throws Exception {
        try (TestWorker w = engine.worker(Bundles.single("export default { fetch(req, env, ctx) { return new Response('hello ' + new URL(req.url).pathname); } }"))) {
            assertThat(w.text("http://x.test/abc")).isEqualTo("hello /abc");
        }
    }
}
