package dev.cellgate.core.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plugin jar dropped into the watched directory makes its scheme usable within 5 s, no restart. */
class PluginHotDropTest {
    @TempDir
    Path tmp;

    @Test
    void droppedJarBecomesUsableWithinFiveSeconds() throws Exception {
        Path jar = TestPluginBuilder.buildStorePlugin(tmp.resolve("build"), "hotdrop", System.getProperty("java.class.path"));
        Path pluginsDir = tmp.resolve("plugins");
        try (PluginHost host = new PluginHost(pluginsDir)) {
            host.start();
            BucketStores stores = new BucketStores(host);
            assertThatThrownBy(() -> stores.open("hotdrop://b1", StoreOptions.none()))
                    .hasMessageContaining("no bucket store plugin for scheme 'hotdrop'")
                    .hasMessageContaining(pluginsDir.toString());

            // Copy under a temporary name, then rename: how an operator (or cp + mv) drops a jar.
            Path partial = pluginsDir.resolve("hotdrop-plugin.jar.part");
            Files.copy(jar, partial);
            Files.move(partial, pluginsDir.resolve("hotdrop-plugin.jar"), StandardCopyOption.ATOMIC_MOVE);
            long t0 = System.nanoTime();
            while (!stores.schemes().contains("hotdrop")) {
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms waiting for the plugin").isLessThan(5_000);
                Thread.sleep(50);
            }
            try (BucketStore s = stores.open("hotdrop://b" + System.nanoTime(), StoreOptions.none())) {
                assertThat(s.putIfAbsent("x", "y".getBytes(StandardCharsets.UTF_8)).get().written()).isTrue();
                assertThat(new String(s.get("x").get().orElseThrow().bytes(), StandardCharsets.UTF_8)).isEqualTo("y");
            }
            assertThat(host.describe()).anySatisfy(p -> assertThat(p.get("id")).isEqualTo("test-store-hotdrop"));
        }
    }

    @Test
    void aBrokenJarIsReportedAndTheHostKeepsRunning() throws Exception {
        Path pluginsDir = tmp.resolve("plugins2");
        Files.createDirectories(pluginsDir);
        Files.writeString(pluginsDir.resolve("broken.jar"), "not a jar");
        try (PluginHost host = new PluginHost(pluginsDir)) {
            host.start();
            assertThat(new BucketStores(host).schemes()).containsExactly("file");
        }
    }
}
