package dev.cellgate.sim;

import dev.cellgate.core.cell.OutputGate;
import dev.cellgate.core.fleet.Acquisition;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.AlarmRetry;
import dev.cellgate.replicator.wal.replica.NotOwnerException;
import dev.cellgate.replicator.wal.replica.SimReplica;
import dev.cellgate.core.time.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A cell resident on a simulated node. What is modelled here is the host's event loop (the role of
 * {@code Cell}: one event at a time, requests queued during activation, reset on a replication
 * failure) and the state (a {@link CellState} in one database page). The rest is REAL: activation
 * acquires epoch N with {@code OwnershipStore}, restores with {@code DatabaseRestorer} (the lineage
 * planner and its pin rule) and pins {@code e<N>} before serving; each change is committed to the
 * real {@code UploadPipeline} (ownership confirmed after each upload) and its reply released by the
 * real {@link OutputGate}. Alarms use the REAL {@link WakeIndex}: the entry is written before an
 * alarm change becomes durable, the old one dropped after, and a fired alarm's entry removed once
 * its consumption is durable.
 */
final class SimCell {
    enum Phase { ACTIVATING, SERVING, RELEASING, GONE }

    enum Kind { REQUEST, WAKE, FIRE }

    /** The start of a reply that says the call was not run here: the owner is elsewhere (a signed "not owner"). */
    static final String OWNER_ELSEWHERE = "owner elsewhere";

    /** A WAKE's reply when the cell deleted the stale entry it was asked about (also a success). */
    static final String WAKE_DROPPED = "wake: stale entry dropped";

    /**
     * A unit of work for the cell; {@code reply(null)} means success. For a WAKE, {@code alarmId}
     * carries the start of the due entry's minute.
     */
    record Work(Kind kind, String scope, Request req, long alarmId, boolean forwarded, boolean retried,
                Consumer<String> reply, int resends) {
        Work(Kind kind, String scope, Request req, long alarmId, boolean forwarded, boolean retried, Consumer<String> reply) {
            this(kind, scope, req, alarmId, forwarded, retried, reply, 0);
        }

        Work retry() {
            return new Work(kind, scope, req, alarmId, forwarded, true, reply, resends);
        }

        Work forwardedWith(Consumer<String> back) {
            return new Work(kind, scope, req, alarmId, true, retried, back, resends);
        }

        /** The same call sent again by the router after a failed forward (its origin re-resolves the owner). */
        Work resent() {
            return new Work(kind, scope, req, alarmId, false, retried, reply, resends + 1);
        }
    }

    private final SimNode node;
    final String scope;
    /** The real output gate: it releases a reply once the replica says the commit is durable. */
    private final OutputGate outputGate;
    Phase phase = Phase.ACTIVATING;
    long epoch;
    private String ownVersion;
    private CellState state;
    /** The real replication of this epoch, from the restore on. */
    private SimReplica replica;
    private final ArrayDeque<Work> queue = new ArrayDeque<>();
    private boolean busy;
    private Scheduler.Cancellable alarmTimer;
    private int consumeFailures;

    SimCell(SimNode node, String scope) {
        this.node = node;
        this.scope = scope;
        this.outputGate = new OutputGate(true);
    }

    boolean idle() {
        return phase == Phase.SERVING && !busy && queue.isEmpty();
    }

    void submit(Work w) {
        if (phase == Phase.GONE) {
            if (w.retried()) {
                w.reply().accept("cell gone");
            } else {
                node.accept(w.retry());
            }
            return;
        }
        queue.add(w);
        pump();
    }

    // ------------------------------------------------------------------ activation

    void activate() {
        node.sim.checker.acquireStarted(node.session(), scope, node.sim.loop.now());
        node.ownership.acquire(scope).whenComplete((a, e) -> node.sim.guard(() -> {
            node.sim.checker.acquireEnded(node.session(), scope);
            node.sim.trace(node.name, "acquire " + scope.substring(scope.length() - 2) + " -> " + (e != null ? e : a));
            if (e != null) {
                abandon("acquire failed: " + e);
                return;
            }
            switch (a) {
                case Acquisition.Acquired acq -> {
                    epoch = acq.epoch();
                    ownVersion = acq.version();
                    restore();
                }
                case Acquisition.OwnedElsewhere o -> {
                    gone();
                    List<Work> waiting = drain();
                    waiting.forEach(w -> {
                        if (w.forwarded()) {
                            w.reply().accept(OWNER_ELSEWHERE + " (" + o.node() + ") after a forward");
                        } else {
                            node.forward(o.node(), w);
                        }
                    });
                }
                case Acquisition.Unavailable u -> abandon("unavailable: " + u.reason());
            }
        }));
    }

    /**
     * The REAL restore (listing, lineage planner and pin rule, segment checks, rebuilt file), then
     * the REAL replica of this epoch: its pin written and durable before the cell serves, so a stale
     * owner's late writes under older epochs are never read again.
     */
    private void restore() {
        SimDatabase.restore(node.sim.dbDir, node.view, scope, epoch, node.sim.pinRule()).thenCompose(restored -> {
            state = restored.state();
            long e0 = epoch;
            String v0 = ownVersion;
            replica = new SimReplica(node.view, scope, epoch, restored.lineage(), restored.image(),
                    () -> node.ownership.confirm(scope, e0, v0), node.sim.variant == Variant.ACK_BEFORE_DURABLE);
            return replica.durable();
        }).thenCompose(pinned ->
            // a durable alarm must have its index entry: re-put it (heals an entry lost earlier)
            state.hasAlarm() ? node.index.moved(scope, OptionalLong.empty(), OptionalLong.of(state.alarmAt))
                    .handle((m, e) -> (Void) null) : CompletableFuture.<Void>completedFuture(null)
        ).whenComplete((x, e) -> node.sim.guard(() -> {
            if (phase != Phase.ACTIVATING) {
                return;
            }
            if (e != null) {
                abandon("restore failed: " + e);
                return;
            }
            phase = Phase.SERVING;
            node.sim.trace(node.name, "serving " + scope.substring(scope.length() - 2) + " e" + epoch + " alarm "
                    + (state.hasAlarm() ? state.alarmId + " at +" + (state.alarmAt - node.sim.loop.now()) : "none"));
            armAlarm();
            pump();
        }));
    }

    // ------------------------------------------------------------------ events, one at a time

    private void pump() {
        if (busy || phase != Phase.SERVING || queue.isEmpty()) {
            return;
        }
        busy = true;
        Work w = queue.poll();
        run(w).whenComplete((x, e) -> node.sim.guard(() -> {
            if (e != null) {
                node.sim.checker.fail("simulator error", "cell event failed: " + e, node.sim.loop.now());
            }
            busy = false;
            pump();
        }));
    }

    private CompletableFuture<Void> run(Work w) {
        return switch (w.kind()) {
            case WAKE -> {
                armAlarm();
                // The cell is idle between events, so its state is the durable one (an alarm change
                // holds the cell until it is durable); the delete holds it too, so a later alarm in the
                // same minute re-writes the key after it.
                long minute = w.alarmId();
                OptionalLong stored = state.hasAlarm() ? OptionalLong.of(state.alarmAt) : OptionalLong.empty();
                if (node.sim.wakeVerdict().forStoredAlarm(minute, stored) == WakeEntryVerdict.Action.KEEP) {
                    w.reply().accept(null);
                    yield CompletableFuture.completedFuture(null);
                }
                // As Cell.judgeWakeEntry: only a copy that is still the owner's deletes the entry; a
                // superseded one is dropped and the wake fails (the waker looks again later).
                long e0 = epoch;
                String v0 = ownVersion;
                yield node.ownership.confirm(scope, e0, v0).exceptionally(x -> null).thenCompose(owned -> {
                    if (!Boolean.TRUE.equals(owned)) {
                        if (Boolean.FALSE.equals(owned) && phase == Phase.SERVING) {
                            lost();
                        }
                        w.reply().accept("wake: this copy is not the owner's (any more, or the bucket did not say)");
                        return CompletableFuture.completedFuture((Void) null);
                    }
                    return node.index.drop(scope, minute).handle((x, e) -> {
                        w.reply().accept(e == null ? WAKE_DROPPED : "stale wake entry not dropped: " + e);
                        return (Void) null;
                    });
                });
            }
            case FIRE -> fire(w.alarmId());
            case REQUEST -> {
                node.sim.checker.ran(w.req().id(), node.process, scope, node.sim.loop.now());
                yield switch (w.req().op()) {
                    case WRITE -> write(w);
                    case SET_ALARM -> changeAlarm(w, OptionalLong.of(w.req().alarmAt()));
                    case DELETE_ALARM -> changeAlarm(w, OptionalLong.empty());
                };
            }
        };
    }

    private CompletableFuture<Void> write(Work w) {
        state.writes.add(w.req().id());
        return durable(w, () -> node.sim.checker.ackedWrite(scope, w.req().id())).thenApply(ok -> null);
    }

    private CompletableFuture<Void> changeAlarm(Work w, OptionalLong next) {
        OptionalLong prev = state.hasAlarm() ? OptionalLong.of(state.alarmAt) : OptionalLong.empty();
        if (prev.isEmpty() && next.isEmpty()) {
            w.reply().accept(null);
            return CompletableFuture.completedFuture(null);
        }
        return node.index.moved(scope, prev, next).handle((move, e) -> move).thenCompose(move -> {
            if (move == null) {
                w.reply().accept("wake index entry not written");
                return CompletableFuture.completedFuture(null);
            }
            if (state.hasAlarm()) {
                state.replaced.add(state.alarmId);
            }
            state.alarmId = next.isPresent() ? w.req().id() : -1;
            state.alarmAt = next.orElse(0);
            armAlarm();
            return durable(w, () -> {
                if (next.isPresent()) {
                    node.sim.checker.ackedAlarm(scope, w.req().id());
                }
            }).thenCompose(ok -> ok ? move.durable() : CompletableFuture.completedFuture(null));
        });
    }

    private CompletableFuture<Void> fire(long alarmId) {
        if (!state.fired.contains(alarmId)) {
            if (state.alarmId != alarmId) {
                return CompletableFuture.completedFuture(null); // replaced meanwhile
            }
            state.fired.add(alarmId);
            state.alarmId = -1;
        }
        long at = state.alarmAt;
        return gate().thenCompose(ok -> {
            node.sim.trace(node.name, "fire " + alarmId + " on " + scope.substring(scope.length() - 2) + ": " + (ok ? "durable" : "not durable"));
            if (ok) {
                consumeFailures = 0;
                node.sim.checker.alarmsFired++;
                return node.index.consumed(scope, at, state.hasAlarm() ? OptionalLong.of(state.alarmAt) : OptionalLong.empty())
                        .handle((x, e) -> (Void) null);
            }
            // consumption not durable: retry as Cloudflare does; past the retries the waker wakes it again
            OptionalLong delay = AlarmRetry.nextDelayMs(++consumeFailures);
            if (delay.isPresent() && phase == Phase.SERVING) {
                node.scheduler.after(delay.getAsLong(), () -> submit(new Work(Kind.FIRE, scope, null, alarmId, false, false, r -> { })));
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * Upload, confirm, then acknowledge, as the REAL {@link OutputGate} decides: the reply waits for
     * the gate's barrier, which opens when the replica says the upload and confirm held (at once in
     * the broken variant, whose pipeline answers before it uploads). Completes true when the change
     * is durable under an epoch this node still owned.
     */
    private CompletableFuture<Boolean> durable(Work w, Runnable recordAck) {
        CompletableFuture<Void> barrier = outputGate.barrier(true);
        CompletableFuture<Boolean> uploaded = gate();
        outputGate.committed(uploaded.thenCompose(ok -> ok ? CompletableFuture.<Void>completedFuture(null)
                : CompletableFuture.failedFuture(new IllegalStateException("not durable"))));
        barrier.whenComplete((x, e) -> node.sim.guard(() -> {
            if (e == null) {
                recordAck.run();
                w.reply().accept(null);
            } else {
                // it ran: its commit may have landed, so it is never run again (outcome unknown)
                w.reply().accept("not durable");
            }
        }));
        return uploaded;
    }

    /**
     * Commits the state to the REAL replica and waits for it to be durable: uploaded by the real
     * {@code UploadPipeline}, ownership confirmed after the upload. Completes true when both held.
     * A "not the owner" answer means the cell moved on: stop serving it. Any other failure leaves
     * the local state ahead of the bucket for good, so the cell is dropped (the host resets it) and
     * the next call restores what is durable.
     */
    private CompletableFuture<Boolean> gate() {
        replica.commit(SimDatabase.PAGE_SIZE, 1, SimDatabase.pages(state));
        return replica.durable().handle((x, e) -> {
            if (e == null) {
                return true;
            }
            if (phase == Phase.SERVING) {
                if (rootCause(e) instanceof NotOwnerException) {
                    lost();
                } else {
                    abandon("replication failed: local state dropped (" + rootCause(e) + ")");
                }
            }
            return false;
        });
    }

    private static Throwable rootCause(Throwable e) {
        Throwable c = e;
        while ((c instanceof java.util.concurrent.CompletionException || c instanceof dev.cellgate.core.spi.replication.CommitOutcomeUnknownException)
                && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    // ------------------------------------------------------------------ alarms, release, loss

    void armAlarm() {
        if (alarmTimer != null) {
            alarmTimer.cancel();
            alarmTimer = null;
        }
        if (phase == Phase.SERVING && state.hasAlarm()) {
            long id = state.alarmId;
            alarmTimer = node.scheduler.after(Math.max(0, state.alarmAt - node.clock.nowMs()),
                    () -> submit(new Work(Kind.FIRE, scope, null, id, false, false, r -> { })));
        }
    }

    /** Handoff: only when idle, so the last write is durable; requests arriving meanwhile go through a fresh acquire. */
    void release() {
        phase = Phase.RELEASING;
        if (alarmTimer != null) {
            alarmTimer.cancel();
        }
        CompletableFuture<Void> entry = state.hasAlarm()
                ? node.index.moved(scope, OptionalLong.empty(), OptionalLong.of(state.alarmAt)).handle((m, e) -> (Void) null)
                : CompletableFuture.completedFuture(null);
        entry.thenCompose(x -> node.ownership.release(scope, epoch, ownVersion)).whenComplete((ok, e) -> node.sim.guard(() -> {
            gone();
            drain().forEach(w -> node.accept(w.retried() ? w : w.retry()));
        }));
    }

    /** The ownership record moved on: stop serving (no release, it is not ours any more). */
    private void lost() {
        gone();
        drain().forEach(w -> {
            if (w.retried()) {
                w.reply().accept("not owner");
            } else {
                node.accept(w.retry());
            }
        });
    }

    private void abandon(String why) {
        gone();
        drain().forEach(w -> w.reply().accept(why));
    }

    private void gone() {
        phase = Phase.GONE;
        if (alarmTimer != null) {
            alarmTimer.cancel();
        }
        node.cells.remove(scope, this);
    }

    private List<Work> drain() {
        List<Work> out = new ArrayList<>(queue);
        queue.clear();
        return out;
    }
}
