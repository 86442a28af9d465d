package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin exposes the replicator as the PF4J extension named {@code wal}. */
class WalReplicatorProviderTest {
    @TempDir
    Path tmp;

    @Test
    void theExtensionIsIndexedForPf4jAndNamedWal() throws Exception {
        // Every jar/classes dir on the test path may carry an index: ours must list the provider.
        StringBuilder all = new StringBuilder();
        var urls = getClass().getClassLoader().getResources("META-INF/extensions.idx");
        while (urls.hasMoreElements()) {
            try (InputStream in = urls.nextElement().openStream()) {
                all.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertThat(all.toString()).as("PF4J extension indexes").contains(WalReplicatorProvider.class.getName());
        assertThat(new WalReplicatorProvider().name()).isEqualTo("wal");
    }

    @Test
    void theProviderBuildsAWorkingReplicatorAndRefusesABadConfig() throws Exception {
        try (Fixture fx = new Fixture(tmp)) {
            Replicator r = new WalReplicatorProvider().create(new ReplicatorConfig(fx.bucket, fx.io, 1 << 20));
            assertThat(r.restore(Fixture.SCOPE, 1, fx.db("n")).get(10, TimeUnit.SECONDS).hasData()).isFalse();
            assertThatThrownBy(() -> new WalReplicatorProvider().create(new ReplicatorConfig(fx.bucket, fx.io, 0)))
                    .hasMessageContaining("snapshotEveryBytes must be positive");
        }
    }
}
