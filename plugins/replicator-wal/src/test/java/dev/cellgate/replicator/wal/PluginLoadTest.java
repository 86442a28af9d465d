package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.ReplicatorProvider;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module packed as a PF4J plugin jar (our classes only: SPI, PF4J, Vert.x and sqlite-jdbc come
 * from the host) loads through the real plugin host, and the replicator it provides works on a
 * real database from inside the plugin's class loader.
 */
class PluginLoadTest {
    @TempDir
    Path tmp;

    @Test
    void thePluginJarLoadsAndItsReplicatorShipsAndRestores() throws Exception {
        Path plugins = tmp.resolve("plugins");
        packPlugin(plugins.resolve("replicator-wal.jar"));
        try (PluginHost host = new PluginHost(plugins); Fixture fx = new Fixture(tmp.resolve("fx"))) {
            host.start();
            // PF4J also reports extensions indexed on the application class path (here: this module's
            // own target/classes); the one that matters is the one the plugin's class loader loaded.
            List<ReplicatorProvider> fromPlugin = host.extensions(ReplicatorProvider.class).stream()
                    .filter(x -> x.getClass().getClassLoader() != getClass().getClassLoader()).toList();
            assertThat(fromPlugin).extracting(ReplicatorProvider::name).containsExactly("wal");
            ReplicatorProvider p = fromPlugin.get(0);

            Replicator r = p.create(new ReplicatorConfig(fx.bucket, fx.io, 1 << 20));
            long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "n");
            CellHarness h = fx.harness(fx.db("n"));
            CellReplica replica = h.attach(r, Fixture.SCOPE, epoch, () -> CompletableFuture.completedFuture(true));
            assertThat(replica.getClass().getClassLoader()).isSameAs(p.getClass().getClassLoader());
            h.sql("CREATE TABLE t (v TEXT)", "INSERT INTO t VALUES ('through the plugin')").get(30, TimeUnit.SECONDS);
            r.restore(Fixture.SCOPE, epoch + 1, fx.db("m")).get(30, TimeUnit.SECONDS);
            assertThat(CellHarness.dumpFile(fx.db("m"))).contains("t:through the plugin|");
        }
    }

    /** Packs target/classes (this module's compiled classes and extensions.idx) with the plugin manifest. */
    private static void packPlugin(Path jar) throws Exception {
        Path classes = Path.of(WalReplicatorProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Plugin-Id", "replicator-wal");
        a.putValue("Plugin-Version", "0.1.0");
        a.putValue("Plugin-Class", WalReplicatorPlugin.class.getName());
        a.putValue("Plugin-Provider", "cellgate");
        Files.createDirectories(jar.getParent());
        try (OutputStream fo = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(fo, mf);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
    }
}
