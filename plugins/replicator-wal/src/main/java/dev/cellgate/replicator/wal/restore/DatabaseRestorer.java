package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.PageHash;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.ReplicaMetadata;
import dev.cellgate.replicator.wal.format.Segment;
import dev.cellgate.replicator.wal.format.SnapshotManifest;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a cell database from its lineage into a temporary file next to the target, verifying
 * every object and the checksum chain, then the whole file, and only then renames it into place
 * (and writes {@code <db>.replica.json}). Any failure deletes the temporary file: a partial
 * database never appears under the target name. A caller that cancels the returned future stops
 * the restore: no further bucket reads, no rename ({@link RestoreCancellation}).
 */
public final class DatabaseRestorer {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseRestorer.class);
    private static final int MISSING_RETRIES = 3;

    private final LineageKeys keys;
    private final BucketReads reads;
    private final LineageResolver resolver;
    private final Executor io;
    private final int parallelism;

    public DatabaseRestorer(LineageKeys keys, BucketReads reads, Executor io, int parallelism, PinRule pins) {
        this.keys = keys;
        this.reads = reads;
        this.resolver = new LineageResolver(keys, reads, pins);
        this.io = io;
        this.parallelism = parallelism;
    }

    public CompletableFuture<RestoreResult> restore(long acquiredEpoch, Path dbFile) {
        return restore(acquiredEpoch, dbFile, () -> resolver.resolve(acquiredEpoch));
    }

    /**
     * Point-in-time recovery: rebuilds the state after transaction {@code txid} of the lineage of
     * {@code epoch} (below {@code acquiredEpoch}); the metadata written next to it makes the epoch that
     * attaches pin that point, so it starts a new lineage there.
     */
    public CompletableFuture<RestoreResult> restoreTo(long acquiredEpoch, Path dbFile, long epoch, long txid) {
        if (epoch >= acquiredEpoch) {
            return CompletableFuture.failedFuture(new RestoreException("cell " + keys.scope() + ": the state e" + epoch + "@" + txid
                    + " is not below the acquired epoch " + acquiredEpoch));
        }
        return restore(acquiredEpoch, dbFile, () -> resolver.resolveAt(epoch, txid));
    }

    private CompletableFuture<RestoreResult> restore(long acquiredEpoch, Path dbFile,
                                                     Supplier<CompletableFuture<LineageResolver.Resolved>> resolve) {
        if (Files.exists(dbFile)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("cannot restore cell " + keys.scope()
                    + " into " + dbFile + ": the file already exists"));
        }
        try {
            // Without the database, files named after it are leftovers: a stale -wal would even be
            // replayed into the new database when SQLite opens it.
            for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
                Files.deleteIfExists(dbFile.resolveSibling(dbFile.getFileName() + suffix));
            }
            ReplicaMetadata.delete(dbFile);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new UncheckedIOException("cell " + keys.scope()
                    + ": cannot clear leftovers of " + dbFile + ": " + e.getMessage(), e));
        }
        long t0 = System.nanoTime();
        RestoreCancellation cancel = new RestoreCancellation(keys.scope());
        CompletableFuture<RestoreResult> out = new CompletableFuture<>();
        // Runs in the cancelling thread, before cancel() returns: no rename can happen after it.
        out.whenComplete((r, e) -> {
            if (out.isCancelled()) {
                cancel.cancel();
            }
        });
        attempt(resolve, acquiredEpoch, dbFile, 1, cancel).handle((res, err) -> {
            if (err == null) {
                LOG.atInfo().setMessage("replica.restored").addKeyValue("scope", keys.scope()).addKeyValue("epoch", res.epoch())
                        .addKeyValue("objects", res.objectsRead()).addKeyValue("bytes", res.databaseBytes())
                        .addKeyValue("ms", (System.nanoTime() - t0) / 1_000_000).log();
                return res;
            }
            Throwable c = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            if (c instanceof java.util.concurrent.CancellationException ce) {
                LOG.atInfo().setMessage("replica.restore_cancelled").addKeyValue("scope", keys.scope()).log();
                throw ce;
            }
            LOG.atError().setMessage("replica.restore_failed").addKeyValue("scope", keys.scope())
                    .addKeyValue("error", c.getMessage()).log();
            if (c instanceof RestoreException re) {
                throw re;
            }
            if (c instanceof BucketReads.MissingObjectException m) {
                throw new RestoreException("cell " + keys.scope() + ": " + m.getMessage() + " (listed, then gone)", m);
            }
            if (c instanceof IllegalArgumentException ia) {
                throw ia;
            }
            throw new RestoreException("cell " + keys.scope() + ": restore failed: " + c, c);
        }).whenComplete((res, err) -> {
            if (err != null) {
                out.completeExceptionally(err instanceof CompletionException && err.getCause() != null ? err.getCause() : err);
            } else {
                out.complete(res);
            }
        });
        return out;
    }

    /**
     * One listing, plan and build. An object that was listed but is gone when read was deleted by
     * the garbage collection of an owner that still ran (possible only for a reader that did not
     * acquire the cell first): list and plan again, a bounded number of times.
     */
    private CompletableFuture<RestoreResult> attempt(Supplier<CompletableFuture<LineageResolver.Resolved>> resolve,
                                                     long acquiredEpoch, Path dbFile, int n, RestoreCancellation cancel) {
        CompletableFuture<LineageResolver.Resolved> resolved;
        try {
            cancel.check();
            resolved = resolve.get();
        } catch (RuntimeException e) {
            resolved = CompletableFuture.failedFuture(e);
        }
        return resolved.thenCompose(r -> {
            if (r.plan().isEmpty() || r.plan().get().empty()) {
                return CompletableFuture.completedFuture(RestoreResult.empty());
            }
            cancel.check();
            return run(new RestoreBuild(keys.scope(), r.plan().get(), dbFile), acquiredEpoch, cancel);
        }).handle((res, err) -> {
            Throwable c = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            if (c instanceof BucketReads.MissingObjectException && n < MISSING_RETRIES) {
                return attempt(resolve, acquiredEpoch, dbFile, n + 1, cancel);
            }
            return err == null ? CompletableFuture.completedFuture(res) : CompletableFuture.<RestoreResult>failedFuture(c);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<RestoreResult> run(RestoreBuild b, long acquiredEpoch, RestoreCancellation cancel) {
        RestorePlan plan = b.plan;
        CompletableFuture<Void> f;
        try {
            b.open();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new UncheckedIOException(e));
        }
        f = plan.manifest() == null ? CompletableFuture.completedFuture(null) : loadSnapshot(b, cancel);
        List<List<ObjectKey>> batches = batches(plan.segments());
        for (List<ObjectKey> batch : batches) {
            f = f.thenCompose(x -> AsyncLimiter.map(batch, parallelism, k -> fetch(b, k.key(), cancel)
                            .thenApplyAsync(bytes -> SegmentChecks.decodeSegment(keys.scope(), k, bytes), io)))
                    .thenAcceptAsync(segments -> {
                        for (int i = 0; i < segments.size(); i++) {
                            b.apply(batch.get(i), segments.get(i));
                        }
                    }, io);
        }
        return f.thenApplyAsync(x -> finish(b, acquiredEpoch, cancel), io).whenComplete((r, err) -> {
            if (err != null) {
                b.discard();
            }
        });
    }

    private CompletableFuture<Void> loadSnapshot(RestoreBuild b, RestoreCancellation cancel) {
        ObjectKey mk = b.plan.manifest();
        return fetch(b, mk.key(), cancel).thenCompose(bytes -> {
            SnapshotManifest m;
            try {
                m = SnapshotManifest.fromBytes(bytes, "snapshot manifest " + mk.key());
            } catch (IllegalArgumentException e) {
                throw SegmentChecks.corrupt(keys.scope(), mk.key(), "snapshot manifest", e.getMessage());
            }
            if (!m.scope().equals(keys.scope()) || m.epoch() != mk.epoch() || m.position().txid() != mk.minTxid()) {
                throw SegmentChecks.corrupt(keys.scope(), mk.key(), "snapshot manifest", "it names cell " + m.scope()
                        + " e" + m.epoch() + " txid " + m.position().txid());
            }
            return AsyncLimiter.map(m.chunks(), parallelism, c -> fetch(b, c.key(), cancel).thenApplyAsync(raw -> {
                Segment s = SegmentChecks.decodeChunk(keys.scope(), c.key(), m.epoch(), m.position().txid(),
                        c.firstPage(), c.pages(), m.position().pages(), raw);
                b.writeChunk(s);
                return s.header().postChecksum();
            }, io)).thenAccept(sums -> {
                long x = 0;
                for (long s : sums) {
                    x ^= s;
                }
                if (x != m.position().checksum()) {
                    throw SegmentChecks.corrupt(keys.scope(), mk.key(), "snapshot e" + m.epoch() + "@" + m.position().txid(),
                            "its chunks add up to checksum " + PageHash.hex(x) + ", the manifest says "
                                    + PageHash.hex(m.position().checksum()));
                }
                b.startAt(m.position());
            });
        });
    }

    private CompletableFuture<byte[]> fetch(RestoreBuild b, String key, RestoreCancellation cancel) {
        try {
            cancel.check();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return reads.require(key).thenApply(bytes -> {
            b.counted(bytes.length);
            return bytes;
        });
    }

    private RestoreResult finish(RestoreBuild b, long acquiredEpoch, RestoreCancellation cancel) {
        try {
            Position end = b.close();
            DbImage image = DbImage.scan(b.tmp);
            if (image.checksum() != end.checksum() || image.pages() != end.pages()) {
                throw new RestoreException("cell " + keys.scope() + ": the rebuilt database (" + image.pages() + " pages, checksum "
                        + PageHash.hex(image.checksum()) + ") differs from the lineage end " + end);
            }
            // Metadata first: without a database next to it, it is inert; the rename is the last step.
            LineageEnd lineage = new LineageEnd(end, b.plan.snapshot(), b.plan.spans(), b.plan.segments().size(), b.segmentBytes);
            cancel.unlessCancelled(() -> {
                new ReplicaMetadata(keys.scope(), acquiredEpoch, true, lineage).write(b.dbFile);
                try {
                    Files.move(b.tmp, b.dbFile, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    ReplicaMetadata.delete(b.dbFile);
                    throw e;
                }
            });
            return new RestoreResult(b.plan.tip(), b.objects.get(), b.bytes.get(), Files.size(b.dbFile));
        } catch (IOException e) {
            throw new UncheckedIOException("cell " + keys.scope() + ": writing the restored database " + b.dbFile + " failed: " + e, e);
        }
    }

    private List<List<ObjectKey>> batches(List<ObjectKey> all) {
        List<List<ObjectKey>> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += parallelism) {
            out.add(all.subList(i, Math.min(all.size(), i + parallelism)));
        }
        return out;
    }
}
