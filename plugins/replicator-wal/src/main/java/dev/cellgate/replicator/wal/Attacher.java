package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.AttachRefusedException;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.ReplicaMetadata;
import dev.cellgate.replicator.wal.replica.AttachState;
import dev.cellgate.replicator.wal.restore.LineageEndReader;
import dev.cellgate.replicator.wal.restore.LineageResolver;
import dev.cellgate.replicator.wal.restore.RestorePlan;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Establishes, before replication starts, which lineage point the local database holds.
 *
 * <ul>
 *   <li>Just restored for this epoch ({@code .replica.json} says so, and the file's checksum
 *       matches): the restore's view of the bucket is used as is.</li>
 *   <li>Kept from an earlier epoch of this node ({@code .replica.json} written by a clean detach):
 *       the file must match its metadata, and the end of the newest pinned lineage in the bucket
 *       must be exactly that point (same txid, size and checksum) — else someone else wrote in
 *       between, or this copy holds writes that never became durable.</li>
 *   <li>No metadata: only a new database (at most its header page) is accepted, and only when the
 *       bucket holds no data for the cell.</li>
 * </ul>
 * Anything else is refused with {@link AttachRefusedException}. This method blocks (bucket reads
 * bounded by the policy's attach timeout).
 */
final class Attacher {
    private final BucketReads reads;
    private final WalPolicy policy;

    Attacher(BucketReads reads, WalPolicy policy) {
        this.reads = reads;
        this.policy = policy;
    }

    AttachState prepare(String scope, long epoch, Path dbFile, WalCheckpoint cp) {
        if (epoch < 1) {
            throw new IllegalArgumentException("cell " + scope + ": epoch must be positive, got " + epoch);
        }
        LineageKeys keys = new LineageKeys(scope);
        Optional<ReplicaMetadata> meta;
        try {
            meta = ReplicaMetadata.read(dbFile);
        } catch (IOException | IllegalArgumentException e) {
            throw new AttachRefusedException("cell " + scope + ": unreadable replica metadata next to " + dbFile + ": " + e.getMessage(), e);
        }
        WalCheckpoint.Result r = cp.truncate();
        if (r.notInWalMode()) {
            throw new IllegalStateException("cell database " + dbFile
                    + " is not in WAL mode: the host must open it with PRAGMA journal_mode=WAL before attaching");
        }
        if (!r.copiedAll()) {
            throw new AttachRefusedException("cell " + scope + ": cannot checkpoint " + dbFile
                    + " (a transaction or statement holds the WAL); attach needs the cell's connection idle");
        }
        try {
            DbImage image = DbImage.scan(dbFile);
            AttachState st = meta.isPresent()
                    ? withMetadata(keys, epoch, dbFile, meta.get(), cp, image)
                    : withoutMetadata(keys, epoch, dbFile, cp, image);
            ReplicaMetadata.delete(dbFile); // consumed: only a clean detach writes a new one
            return st;
        } catch (IOException e) {
            throw new AttachRefusedException("cell " + scope + ": cannot read " + dbFile + ": " + e.getMessage(), e);
        }
    }

    private AttachState withMetadata(LineageKeys keys, long epoch, Path dbFile, ReplicaMetadata meta, WalCheckpoint cp,
                                     DbImage image) {
        String scope = keys.scope();
        Position local = meta.lineage().end();
        if (!meta.scope().equals(scope)) {
            throw new AttachRefusedException("cell " + scope + ": " + dbFile + " holds cell " + meta.scope());
        }
        if (meta.epoch() >= epoch && !(meta.restored() && meta.epoch() == epoch)) {
            throw new AttachRefusedException("cell " + scope + ": local copy comes from epoch " + meta.epoch()
                    + ", not from before epoch " + epoch);
        }
        if (image.checksum() != local.checksum() || image.pages() != local.pages()) {
            throw new AttachRefusedException("cell " + scope + ": local copy " + dbFile + " (" + image.pages() + " pages) differs from"
                    + " its replica metadata " + local + ": it holds writes that were never replicated, or was changed outside the replicator");
        }
        if (meta.restored() && meta.epoch() == epoch) {
            return new AttachState(cp, image, meta.lineage(), null);
        }
        Optional<RestorePlan> plan = await(scope, new LineageResolver(keys, reads, policy.pins()).resolve(epoch)).plan();
        LineageEnd bucket = plan.isEmpty() ? LineageEnd.empty() : await(scope, LineageEndReader.read(scope, reads, plan.get()));
        if (!bucket.end().sameContent(local)) {
            throw new AttachRefusedException("cell " + scope + ": local copy is at " + local + " but the bucket lineage below epoch "
                    + epoch + " ends at " + bucket.end() + ": restore instead");
        }
        return new AttachState(cp, image, bucket, null);
    }

    private AttachState withoutMetadata(LineageKeys keys, long epoch, Path dbFile, WalCheckpoint cp, DbImage image)
            throws IOException {
        String scope = keys.scope();
        if (image.pages() > 1) {
            throw new AttachRefusedException("cell " + scope + ": " + dbFile + " has " + image.pages() + " pages but no replica"
                    + " metadata, so nothing proves it matches the bucket: delete it and restore");
        }
        LineageEnd lineage = LineageEnd.empty();
        if (epoch > 1) {
            Optional<RestorePlan> plan = await(scope, new LineageResolver(keys, reads, policy.pins()).resolve(epoch)).plan();
            if (plan.isPresent() && !plan.get().empty()) {
                throw new AttachRefusedException("cell " + scope + ": the bucket holds data for this cell (lineage of epoch "
                        + plan.get().tip() + ") but " + dbFile + " has no replica metadata: restore it first");
            }
        }
        SortedMap<Integer, byte[]> seed = null;
        if (image.pages() == 1) {
            seed = new TreeMap<>();
            seed.put(1, readPage1(dbFile, image.pageSize()));
        }
        return new AttachState(cp, image, lineage, seed);
    }

    private static byte[] readPage1(Path dbFile, int pageSize) throws IOException {
        try (FileChannel ch = FileChannel.open(dbFile, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(pageSize);
            while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
                // read until full
            }
            return b.array();
        }
    }

    private <T> T await(String scope, java.util.concurrent.CompletableFuture<T> f) {
        try {
            return f.get(policy.attachTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AttachRefusedException("cell " + scope + ": interrupted while checking the bucket", e);
        } catch (ExecutionException e) {
            throw new AttachRefusedException("cell " + scope + ": cannot check the local copy against the bucket: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new AttachRefusedException("cell " + scope + ": checking the local copy against the bucket took longer than "
                    + policy.attachTimeout(), e);
        }
    }
}
