package dev.cellgate.replicator.wal.replica;

import dev.cellgate.replicator.wal.format.Position;
import java.util.concurrent.CompletableFuture;

/**
 * A checkpoint that copied every frame into the database file, taken for a snapshot: the file now
 * holds exactly {@code position}, and stays so until checkpoints resume.
 *
 * @param durable completes when every transaction up to {@code position.txid()} is durable and confirmed
 */
record SnapshotPoint(Position position, CompletableFuture<Void> durable) {
}
