package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.ReplicatorProvider;
import org.pf4j.Extension;

/** PF4J extension: the replication strategy named {@code wal}. */
@Extension
public final class WalReplicatorProvider implements ReplicatorProvider {
    public static final String NAME = "wal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Replicator create(ReplicatorConfig config) {
        return new WalReplicator(config, WalPolicy.defaults());
    }
}
