package dev.cellgate.core.sim;

import dev.cellgate.core.fleet.Acquisition;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.AlarmRetry;
import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A cell resident on a simulated node: the minimal model of activation, replication and the output
 * gate. Activation acquires epoch N (the REAL {@code OwnershipStore}), restores the newest epoch
 * below N and pins {@code e<N>} (writes the restored state under it) before serving. Events run one
 * at a time. A write is uploaded under the epoch, then the ownership is confirmed, and only then
 * acknowledged. Alarms use the REAL {@link WakeIndex}: the entry is written before an alarm change
 * becomes durable, the old one dropped after, and a fired alarm's entry removed once its
 * consumption is durable.
 */
final class SimCell {
    enum Phase { ACTIVATING, SERVING, RELEASING, GONE }

    enum Kind { REQUEST, WAKE, FIRE }

    /** A WAKE's reply when the cell deleted the stale entry it was asked about (also a success). */
    static final String WAKE_DROPPED = "wake: stale entry dropped";

    /**
     * A unit of work for the cell; {@code reply(null)} means success. For a WAKE, {@code alarmId}
     * carries the start of the due entry's minute.
     */
    record Work(Kind kind, String scope, Request req, long alarmId, boolean forwarded, boolean retried,
                Consumer<String> reply) {
        Work retry() {
            return new Work(kind, scope, req, alarmId, forwarded, true, reply);
        }

        Work forwardedWith(Consumer<String> back) {
            return new Work(kind, scope, req, alarmId, true, retried, back);
        }
    }

    private static final Backoff UPLOAD_BACKOFF = new Backoff(50, 2_000, 6);

    private final SimNode node;
    final String scope;
    Phase phase = Phase.ACTIVATING;
    long epoch;
    private String ownVersion;
    private CellState state;
    private long nextSeq = 1;
    private final ArrayDeque<Work> queue = new ArrayDeque<>();
    private boolean busy;
    private Scheduler.Cancellable alarmTimer;
    private int consumeFailures;

    SimCell(SimNode node, String scope) {
        this.node = node;
        this.scope = scope;
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
                            w.reply().accept("owner elsewhere (" + o.node() + ") after a forward");
                        } else {
                            node.forward(o.node(), w);
                        }
                    });
                }
                case Acquisition.Unavailable u -> abandon("unavailable: " + u.reason());
            }
        }));
    }

    private void restore() {
        listAll(Keys.cell(scope), null, new ArrayList<>()).thenCompose(keys -> {
            var pick = Snapshots.pick(scope, keys, epoch);
            if (pick.isEmpty()) {
                return CompletableFuture.completedFuture(new CellState());
            }
            return node.view.get(pick.get()).thenApply(o -> CellState.decode(o.orElseThrow(
                    () -> new IllegalStateException("snapshot " + pick.get() + " vanished")).bytes()));
        }).thenCompose(restored -> {
            state = restored;
            // pin e<N> before serving: a stale owner's late writes under older epochs are never read again
            return node.view.put(Snapshots.key(scope, epoch, 0), state.encode());
        }).thenCompose(pin -> {
            if (!(pin instanceof WriteOutcome.Written)) {
                return CompletableFuture.failedFuture(new IllegalStateException("pin not written: " + pin));
            }
            // a durable alarm must have its index entry: re-put it (heals an entry lost earlier)
            return state.hasAlarm() ? node.index.moved(scope, OptionalLong.empty(), OptionalLong.of(state.alarmAt))
                    .handle((m, e) -> (Void) null) : CompletableFuture.<Void>completedFuture(null);
        }).whenComplete((x, e) -> node.sim.guard(() -> {
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

    private CompletableFuture<List<String>> listAll(String prefix, String cursor, List<String> into) {
        return node.view.list(prefix, cursor, 1000).thenCompose((ListPage p) -> {
            into.addAll(p.keys());
            return p.last() ? CompletableFuture.completedFuture(into) : listAll(prefix, p.nextCursor(), into);
        });
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
                if (WakeEntryVerdict.CORRECT.forStoredAlarm(minute, stored) == WakeEntryVerdict.Action.KEEP) {
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
            case REQUEST -> switch (w.req().op()) {
                case WRITE -> write(w);
                case SET_ALARM -> changeAlarm(w, OptionalLong.of(w.req().alarmAt()));
                case DELETE_ALARM -> changeAlarm(w, OptionalLong.empty());
            };
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
     * Upload, confirm, then acknowledge (or, in the broken variant, acknowledge first). Completes
     * true when the change is durable under an epoch this node still owned.
     */
    private CompletableFuture<Boolean> durable(Work w, Runnable recordAck) {
        if (node.sim.variant == Variant.ACK_BEFORE_DURABLE) {
            recordAck.run();
            w.reply().accept(null);
            return gate();
        }
        return gate().thenApply(ok -> {
            if (ok) {
                recordAck.run();
                w.reply().accept(null);
            } else if (phase == Phase.GONE && !w.retried()) {
                node.accept(w.retry()); // lost the cell: re-resolve the owner once
            } else {
                w.reply().accept("not durable");
            }
            return ok;
        });
    }

    /**
     * The output gate: uploads the state under the epoch, then confirms ownership. Completes true
     * when both held. Like a replicator, a failed upload or confirm is retried (capped exponential
     * backoff with full jitter); when the retries run out, the local state may be ahead of the bucket
     * for good, so the cell is dropped and the next call restores it from what is durable.
     */
    private CompletableFuture<Boolean> gate() {
        byte[] snapshot = state.encode();
        long e = epoch;
        String v = ownVersion;
        String key = Snapshots.key(scope, e, nextSeq++);
        return retrying(() -> node.view.put(key, snapshot).thenApply(o -> o instanceof WriteOutcome.Written ? true : null), 1)
                .thenCompose(up -> up == null ? CompletableFuture.completedFuture((Boolean) null)
                        : retrying(() -> node.ownership.confirm(scope, e, v), 1))
                .thenApply(owned -> {
                    if (owned == null) {
                        if (phase == Phase.SERVING) {
                            abandon("replication failed: local state dropped");
                        }
                        return false;
                    }
                    if (!owned && phase == Phase.SERVING) {
                        lost();
                    }
                    return owned;
                });
    }

    /** Runs {@code call} until it yields a non-null answer, or gives null once the backoff's attempts are used. */
    private <T> CompletableFuture<T> retrying(Supplier<CompletableFuture<T>> call, int attempt) {
        return call.get().exceptionally(x -> null).thenCompose(v -> {
            if (v != null) {
                return CompletableFuture.completedFuture(v);
            }
            OptionalLong delay = UPLOAD_BACKOFF.delayMs(attempt, node.sim.rnd);
            if (delay.isEmpty() || phase != Phase.SERVING) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<T> later = new CompletableFuture<>();
            node.scheduler.after(delay.getAsLong(), () -> retrying(call, attempt + 1).whenComplete((r, x) -> later.complete(r)));
            return later;
        });
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
