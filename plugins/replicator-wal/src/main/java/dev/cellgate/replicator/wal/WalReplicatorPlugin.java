package dev.cellgate.replicator.wal;

import org.pf4j.Plugin;

/** PF4J entry point of the replicator-wal plugin. */
public class WalReplicatorPlugin extends Plugin {
}
