package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.js.graal.support.Bundles;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The PF4J side: the extension is indexed, and stopping the plugin closes its engines (needed to unload it). */
class PluginTest {
    @Test
    void theProviderIsAnIndexedExtensionNamedGraal() throws IOException {
        // This module's own index (other jars on the test class path carry theirs).
        String index = Files.readString(Path.of("target/classes/META-INF/extensions.idx"), StandardCharsets.UTF_8);
        assertThat(index).as("PF4J's annotation processor indexed the provider").contains(GraalJsEngineProvider.class.getName());
        assertThat(new GraalJsEngineProvider().name()).isEqualTo("graal");
    }

    @Test
    void stoppingThePluginClosesEveryEngineItCreated() {
        Vertx vertx = Vertx.vertx();
        try {
            int before = OpenEngines.count();
            JsEngine engine = new GraalJsEngineProvider().create(new JsEngineConfig(vertx, 30_000, 1 << 20, "n"));
            assertThat(OpenEngines.count()).isEqualTo(before + 1);
            new GraalJsPlugin().stop();
            assertThat(OpenEngines.count()).isZero();
            assertThatThrownBy(() -> engine.load(Bundles.single("export default {}")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        } finally {
            vertx.close();
        }
    }
}
