package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import dev.cellgate.replicator.wal.sqlite.WalTxn;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The protocol simulator's way into the REAL replication of one cell at one epoch: the epoch's pin
 * written as {@code WalCellReplica} writes it ({@link LineageEnd#baseFor}, create-only through
 * {@link DurableWrites}), then each commit through the real {@link UploadPipeline} (group commit,
 * one upload at a time, the ownership check after each, failure semantics) with the real
 * {@link DbImage} checksums. Only the SQLite file is not there: the simulator hands in each
 * transaction's pages itself, where {@code WalCellReplica} reads them from the WAL.
 */
public final class SimReplica implements UploadPipeline.Listener {
    private final UploadPipeline pipeline;
    private final DbImage image;
    private long txid;

    /**
     * @param lineage what the restore reached (its end is where this epoch continues from)
     * @param image   the restored database's page hashes
     */
    public SimReplica(BucketStore store, String scope, long epoch, LineageEnd lineage, DbImage image, OwnershipCheck ownership) {
        this(store, scope, epoch, lineage, image, ownership, false);
    }

    /** @param ackBeforeDurable the broken variant: the pipeline's {@code durable()} answers at once */
    public SimReplica(BucketStore store, String scope, long epoch, LineageEnd lineage, DbImage image, OwnershipCheck ownership,
                      boolean ackBeforeDurable) {
        LineageKeys keys = new LineageKeys(scope);
        DurableWrites writes = new DurableWrites(store);
        CompletableFuture<Void> pin = writes.createNew(keys.base(epoch), lineage.baseFor(scope, epoch).toBytes());
        // Segment keys name a time (point-in-time recovery, which the simulator does not drive): a fixed
        // one keeps a replayed run's keys identical.
        java.util.function.LongSupplier noClock = () -> 0L;
        this.pipeline = ackBeforeDurable ? UploadPipeline.brokenAckBeforeDurableForTests(writes, keys, epoch, ownership, this, pin, noClock)
                : new UploadPipeline(writes, keys, epoch, ownership, this, pin, noClock);
        this.image = image;
        this.txid = lineage.end().txid();
    }

    /** Ships one committed transaction that rewrote {@code pages} of a {@code commitPages}-page database. */
    public void commit(int pageSize, int commitPages, SortedMap<Integer, byte[]> pages) {
        long pre = image.checksum();
        int prePages = image.pages();
        SortedMap<Integer, byte[]> copy = new TreeMap<>(pages);
        int low = image.apply(new WalTxn(pageSize, commitPages, copy));
        txid++;
        pipeline.add(txid, pageSize, commitPages, low, copy, pre, prePages, image.checksum());
    }

    /** What the output gate waits for: everything committed so far durable and confirmed (and the pin). */
    public CompletableFuture<Void> durable() {
        return pipeline.durable();
    }

    /** Nothing waits to be uploaded or confirmed, and nothing failed. */
    public boolean idle() {
        return pipeline.idle();
    }

    @Override
    public void confirmed(CommitBatch batch, String key, int bytes) {
        // maintenance (snapshots, compaction, GC) is not simulated: nothing to trigger
    }

    @Override
    public void failed(Throwable cause) {
        // the cell learns of it from durable(): it resets, as the host does
    }
}
