package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.ScriptBundle;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real engine for a test class (register it as a static {@code @RegisterExtension} field), and
 * single-module Workers at a given compatibility date: what workerd offers depends on it. An
 * {@link OriginServer} for outbound requests starts on first use.
 */
public final class DatedWorkers implements BeforeAllCallback, AfterAllCallback {
    private TestEngine engine;
    private OriginServer origin;

    @Override
    public void beforeAll(ExtensionContext context) {
        engine = new TestEngine();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (origin != null) {
            origin.close();
        }
        engine.close();
    }

    public TestEngine engine() {
        return engine;
    }

    public OriginServer origin() {
        if (origin == null) {
            origin = OriginServer.start(engine.vertx);
        }
        return origin;
    }

    /** A Worker whose one module is {@code source}, at compatibility date {@code date}. */
    public TestWorker worker(String date, String source) throws Exception {
        return engine.worker(new ScriptBundle("test-deploy", "test-script", "index.js", Map.of("index.js", source), Map.of(), Map.of(), date,
                List.of()));
    }

    /** The body of {@code GET /} on such a Worker. */
    public String answer(String date, String source) throws Exception {
        try (TestWorker w = worker(date, source)) {
            return w.text("http://x.test/");
        }
    }
}
