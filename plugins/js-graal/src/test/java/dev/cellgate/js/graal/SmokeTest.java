package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SmokeTest {
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    @Test
    void helloWorld() throws Exception {
        try (TestWorker w = engine.worker(Bundles.single("export default { fetch(req, env, ctx) { return new Response('hello ' + new URL(req.url).pathname); } }"))) {
            assertThat(w.text("http://x.test/abc")).isEqualTo("hello /abc");
        }
    }
}
