package dev.cellgate.js.graal.bindings;

import dev.cellgate.js.graal.support.Differential;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * ctx.exports is gated as workerd gates it (its {@code enableCtxExports} flag: {@code enable_ctx_exports},
 * {@code disable_ctx_exports}, on by default from 2025-11-17): the fixture
 * {@code src/test/resources/conformance-services-gate} runs at each date and flag below on workerd
 * and on cellgate, in a Worker's ctx and a Durable Object's.
 */
class CtxExportsGateTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-services-gate");

    // under the module, not in /tmp: miniflare resolves a worker's modules relative to its working
    // directory and refuses a path that climbs out of it ("can't use \"..\" to break out")
    private final Path dir = Path.of("target/ctx-exports-gate");

    @TestFactory
    Stream<DynamicNode> gatedAsOnWorkerd() {
        // one container per variant, made when JUnit reaches it: one engine and one miniflare at a time
        return Stream.of(new String[] {"before-the-date", "2025-11-16"}, new String[] {"from-the-date", "2025-11-17"},
                        new String[] {"enabled-by-flag", "2025-06-01", "enable_ctx_exports"},
                        new String[] {"disabled-by-flag", "2026-01-15", "disable_ctx_exports"})
                .map(v -> {
                    try {
                        return DynamicContainer.dynamicContainer(v[0], Differential.casesOnOwnHostedCells(
                                variant(v[0], v[1], java.util.Arrays.copyOfRange(v, 2, v.length)), 1));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    /** The fixture's Worker at {@code date} with {@code flags}, as a fixture directory of its own. */
    private Path variant(String name, String date, String... flags) throws IOException {
        Path d = Files.createDirectories(dir.resolve("ctx-exports-" + name));
        Files.copy(FIXTURE.resolve("worker.js"), d.resolve("worker.js"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        JsonObject spec = new JsonObject().put("compatibilityDate", date).put("compatibilityFlags", new JsonArray(java.util.List.of(flags)))
                .put("durableObjects", new JsonObject().put("STORE", "Store"))
                .put("cases", new JsonArray().add(new JsonObject().put("name", name)));
        Files.writeString(d.resolve("cases.json"), spec.encodePrettily());
        return d;
    }
}
