package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import java.util.SortedMap;

/**
 * What attach established about a cell database before replication starts.
 *
 * @param checkpoint checkpoints through the cell's own connection
 * @param image     the model of the database file as it is now (WAL empty)
 * @param lineage   the lineage point the file holds, verified, and how a restore reaches it
 * @param seedPages for a new database: the pages already in the file, which the first segment
 *                  ships (the lineage itself starts from an empty database); else {@code null}
 */
public record AttachState(WalCheckpoint checkpoint, DbImage image, LineageEnd lineage, SortedMap<Integer, byte[]> seedPages) {
}
