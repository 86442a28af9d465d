package dev.cellgate.core.cell;

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.cell.storage.SqliteCellStorage;
import dev.cellgate.core.fleet.Acquisition;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.logic.LocalCopy;
import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.observe.ReplicationTotals;
import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.replication.AttachRefusedException;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.time.Ticker;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Activation of one cell (SPEC §9: inactive → activating → resident): acquire ownership at a new
 * epoch, bring the database (reuse this node's clean local copy when nobody held the cell since,
 * else restore from the bucket), attach replication, construct the Durable Object. Any failure
 * after the acquire releases the ownership again so the cell is not stuck on this node.
 */
final class CellActivation {
    private static final Logger LOG = LoggerFactory.getLogger(CellActivation.class);

    private final CellsContext env;

    CellActivation(CellsContext env) {
        this.env = env;
    }

    /**
     * @param cause   the request that needs the cell (named in the activation's log lines), or null
     * @param attempt the race with the deadline: once abandoned, each next step gives the cell back
     */
    CompletableFuture<Cell> activate(CellIdentity id, String cause, ActivationAttempt attempt) {
        String scope = id.scope();
        long t0 = env.ticker().nowMs();
        attempt.enter("acquire");
        return env.ownership().acquire(scope).thenCompose(acq -> switch (acq) {
            case Acquisition.OwnedElsewhere o -> CompletableFuture.failedFuture(new OwnedElsewhereException(scope, o.node()));
            case Acquisition.Unavailable u -> CompletableFuture.failedFuture(new StubCallException(
                    "cell " + scope + " cannot be activated now: " + u.reason(), true, null));
            case Acquisition.Acquired a -> bringUp(id, a, t0, cause, attempt)
                    .exceptionallyCompose(e -> giveBack(scope, a, e, cause, attempt));
        });
    }

    /** Restores from the bucket, timing it for the metrics; the deadline cancels it. */
    private CompletableFuture<RestoreResult> restore(String scope, long epoch, CellFiles files, ActivationAttempt attempt) {
        return restore(scope, epoch, files, attempt, null);
    }

    /** {@code target} null: the newest state; else the state a bookmark names (point-in-time recovery). */
    private CompletableFuture<RestoreResult> restore(String scope, long epoch, CellFiles files, ActivationAttempt attempt,
                                                     Bookmark target) {
        long r0 = System.nanoTime();
        env.restoring().incrementAndGet();
        attempt.enter(target == null ? "restore" : "restore to bookmark " + target.encode());
        CompletableFuture<RestoreResult> r = target == null ? env.replicator().restore(scope, epoch, files.database())
                : env.replicator().restoreTo(scope, epoch, files.database(), target);
        return attempt.cancellable(r).whenComplete((res, e) -> {
            env.restoring().decrementAndGet();
            env.metrics().restore(e == null, System.nanoTime() - r0, res == null ? 0 : res.bytesRead());
        });
    }

    /**
     * {@code storage.onNextSessionRestoreBookmark(b)} left a request in the state just brought up:
     * replace the database with the state {@code b} names before anything runs. Nothing of this
     * epoch is pinned yet, so a crash here leaves the request in the newest lineage and the next
     * activation carries it out again; once this epoch attaches, its pin continues from {@code b}
     * (a new lineage), and the request is not in it.
     */
    private CompletableFuture<Opened> carryOutRestoreRequest(String scope, Acquisition.Acquired a, CellFiles files, Opened o,
                                                           ActivationAttempt attempt) {
        Bookmark target;
        try {
            java.util.Optional<String> wanted = env.replicator() == null ? java.util.Optional.empty() : o.storage.pendingRestore();
            if (wanted.isEmpty()) {
                return CompletableFuture.completedFuture(o);
            }
            target = Bookmark.parse(wanted.get());
        } catch (RuntimeException e) {
            o.storage.close();
            return CompletableFuture.failedFuture(e);
        }
        o.storage.close();
        LOG.atInfo().setMessage("cell.restore_to_bookmark").addKeyValue("scope", scope).addKeyValue("epoch", a.epoch())
                .addKeyValue("bookmark", target.encode()).log();
        return restoreAfresh(scope, a, files, attempt, target);
    }

    /** Drops the local files, restores ({@code target} null: the newest state) and opens the result. */
    private CompletableFuture<Opened> restoreAfresh(String scope, Acquisition.Acquired a, CellFiles files, ActivationAttempt attempt,
                                                    Bookmark target) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                files.wipe();
                files.prepare();
                return null;
            } catch (java.io.IOException e) {
                throw new CompletionException(e);
            }
        }, env.io()).thenCompose(x -> restore(scope, a.epoch(), files, attempt, target))
                .thenApplyAsync(r -> new Opened(new Brought(LocalCopy.Source.RESTORE, r, target), new SqliteCellStorage(files.database())), env.io());
    }

    private CompletableFuture<Cell> bringUp(CellIdentity id, Acquisition.Acquired a, long t0, String cause,
                                            ActivationAttempt attempt) {
        String scope = id.scope();
        CellFiles files = new CellFiles(env.config().watchDir(), scope);
        Replicator replicator = env.replicator();
        return CompletableFuture.supplyAsync(() -> {
            try {
                attempt.enter("prepare the local files");
                files.prepare();
                LocalCopy.Source source = LocalCopy.source(files.releasedEpoch(), a.previousEpoch(), replicator != null);
                files.clearReleased(); // from here on the copy diverges from what the bucket held
                if (source != LocalCopy.Source.REUSE_LOCAL) {
                    files.wipe();
                    files.prepare();
                }
                return source;
            } catch (java.io.IOException e) {
                throw new CompletionException(e);
            }
        }, env.io()).thenCompose(source -> source != LocalCopy.Source.RESTORE
                ? CompletableFuture.completedFuture(new Brought(source, RestoreResult.empty(), null))
                : restore(scope, a.epoch(), files, attempt).thenApply(r -> new Brought(source, r, null))).thenApplyAsync(b -> {
            attempt.enter("open the database");
            SqliteCellStorage storage = new SqliteCellStorage(files.database());
            return new Opened(b, storage);
        }, env.io()).thenCompose(o -> carryOutRestoreRequest(scope, a, files, o, attempt))
                .thenCompose(o -> construct(id, a, files, o, t0, cause, attempt));
    }

    private CompletableFuture<Cell> construct(CellIdentity id, Acquisition.Acquired a, CellFiles files, Opened o, long t0,
                                              String cause, ActivationAttempt attempt) {
        String scope = id.scope();
        CellExecutor executor = new CellExecutor(env.jsThreads().newContext(), scope);
        CellReplica replica;
        try {
            attempt.enter("attach replication");
            replica = env.replicator() == null ? null
                    : env.replicator().attach(scope, a.epoch(), files.database(), executor,
                    () -> env.ownership().confirm(scope, a.epoch(), a.version()), o.storage.walCheckpoint());
        } catch (AttachRefusedException refused) {
            // The kept local copy cannot be proven to be the end of the lineage: drop it and restore.
            o.storage.close();
            LOG.atWarn().setMessage("cell.local_copy_refused").addKeyValue("scope", scope).addKeyValue("reason", refused.getMessage()).log();
            if (LocalCopy.afterAttachRefused(o.brought.source) == LocalCopy.AfterRefusal.RESTORE) {
                return restoreAfresh(scope, a, files, attempt, null)
                        .thenCompose(again -> construct(id, a, files, again, t0, cause, attempt));
            }
            return CompletableFuture.failedFuture(refused);
        } catch (RuntimeException e) {
            o.storage.close();
            return CompletableFuture.failedFuture(e);
        }
        Cell cell = new Cell(id, a.epoch(), a.version(), executor, o.storage, replica, files, env.config().outputGate(),
                env.ticker(), env.listener(), env.timers(), env.metrics());
        env.replicationTotals().attached(replica);
        cell.host = new HostForCell(cell, env.stubs(), env.replicator(), env.ticker());
        cell.currentScript = env::script;
        cell.wakeIndex(env.wakeIndex());
        CompletableFuture<Cell> done = new CompletableFuture<>();
        executor.execute(() -> {
            LoadedScript script = env.script();
            try (LogContext.Scope s = LogContext.enter(cause, null)) {
                attempt.enter("construct the Durable Object");
                if (script == null) {
                    throw new StubCallException("no deployment is loaded on this node", true, null);
                }
                if (o.brought.restoredTo != null) {
                    // The state restored may hold a request of its own (a bookmark taken after one): it is done.
                    o.storage.clearPendingRestore();
                }
                cell.start(script);
                cell.lastUsedMs = env.ticker().nowMs(); // idle time counts from the end of a (possibly slow) start
                cell.alarms.rearm();
                cell.reindexAlarm().exceptionally(e -> {
                    LOG.atWarn().setMessage("wake_index.reindex_failed").addKeyValue("scope", scope)
                            .addKeyValue("error", Errors.rootMessage(e)).log();
                    return null;
                });
                LOG.atInfo().setMessage("cell.activated").addKeyValue("scope", scope).addKeyValue("epoch", a.epoch())
                        .addKeyValue("reused_local", o.brought.source == LocalCopy.Source.REUSE_LOCAL)
                        .addKeyValue("restored_bytes", o.brought.restore.bytesRead())
                        .addKeyValue("ms", env.ticker().nowMs() - t0)
                        .addKeyValue("phases", attempt.phases(System.nanoTime())).log();
                done.complete(cell);
            } catch (Exception e) {
                cell.reset(e);
                done.completeExceptionally(e instanceof StubCallException ? e
                        : new StubCallException("Durable Object " + id.className() + " failed to start: " + e.getMessage(), false, e));
            }
        });
        return done;
    }

    /**
     * Activation failed after the acquire (or was abandoned at its deadline): hand the cell back so
     * it is not stuck here. An abandoned one also drops what it brought to disk: nobody attaches it.
     * A release that does not land leaves the cell owned by this node but not resident, which the
     * next activation anywhere takes over at a new epoch.
     */
    private CompletableFuture<Cell> giveBack(String scope, Acquisition.Acquired a, Throwable e, String cause,
                                             ActivationAttempt attempt) {
        LogContext.run(cause, scope, () -> LOG.atWarn().setMessage("cell.activation_failed").addKeyValue("epoch", a.epoch())
                .addKeyValue("error", Errors.rootMessage(e)).log());
        CompletableFuture<Void> dropped = !attempt.abandoned() ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(() -> {
                    try {
                        new CellFiles(env.config().watchDir(), scope).wipe();
                    } catch (java.io.IOException io) {
                        LOG.atWarn().setMessage("cell.wipe_failed").addKeyValue("scope", scope).addKeyValue("error", io.toString()).log();
                    }
                }, env.io());
        return dropped.thenCompose(x -> env.ownership().release(scope, a.epoch(), a.version()))
                .handle((ok, re) -> null)
                .thenCompose(x -> CompletableFuture.failedFuture(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e));
    }

    /** @param restoredTo the bookmark a restore request made this activation bring back, or null */
    private record Brought(LocalCopy.Source source, RestoreResult restore, Bookmark restoredTo) {
    }

    private record Opened(Brought brought, SqliteCellStorage storage) {
    }

    /** What an activation needs from the registry. */
    interface CellsContext {
        io.vertx.core.Vertx vertx();

        /** Each cell's serial executor is an ordered context on these threads, never an event loop. */
        dev.cellgate.core.worker.JsThreads jsThreads();

        CellsConfig config();

        OwnershipStore ownership();

        Replicator replicator();

        StubChannel stubs();

        LoadedScript script();

        Ticker ticker();

        Executor io();

        Cell.Listener listener();

        CellAlarms.Timers timers();

        java.util.concurrent.atomic.AtomicInteger restoring();

        dev.cellgate.core.fleet.WakeIndex wakeIndex();

        RuntimeMetrics metrics();

        ReplicationTotals replicationTotals();
    }
}
