package dev.cellgate.sim;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.restore.PinRule;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.records.OwnershipRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The end-of-run properties, judged once faults have stopped and the fleet has had time to settle:
 * every acknowledged alarm fired (or was replaced) by the end of the quiet phase; every acknowledged
 * write is in what a restore would read at the end; after the faults stopped every call to every
 * cell succeeded; and each cell is owned by one live node, the one its ownership record names, and
 * no other node still believes it owns it.
 */
final class FinalChecks {
    private FinalChecks() {
    }

    static void run(Simulation sim, List<String> finalFailures) {
        long now = sim.loop.now();
        Checker c = sim.checker;
        for (String scope : sim.scopes) {
            CellState durable = restore(sim, scope);
            if (durable == null) {
                continue;
            }
            Set<Long> lost = new TreeSet<>(c.ackedWrites.getOrDefault(scope, new TreeSet<>()));
            lost.removeAll(durable.writes);
            if (!lost.isEmpty()) {
                c.fail("no acknowledged write lost", scope + ": acknowledged writes " + lost + " missing from the restored state", now);
                return;
            }
        }
        List<String> refused = sim.scopes.stream().filter(scope -> restore(sim, scope) == null).toList();
        finalFailures = finalFailures.stream().filter(f -> refused.stream().noneMatch(f::contains)).toList();
        if (!finalFailures.isEmpty()) {
            c.fail("ownership settles on one live node", "calls failed after the faults stopped: " + finalFailures, now);
            return;
        }
        for (String scope : sim.scopes) {
            if (!refused.contains(scope)) {
                settled(sim, scope, now);
            }
        }
        if (c.failure() == null) {
            noStaleWakeEntries(sim, now);
        }
    }

    /**
     * Once the faults stop, the waker and the woken cells clear every entry their alarm no longer
     * needs (a delete lost during the faults leaves one): an entry left at the end names a minute
     * that is not the cell's durable alarm's. Every alarm of the run is due long before the end, so
     * every entry has been woken several times by then.
     */
    private static void noStaleWakeEntries(Simulation sim, long now) {
        for (String key : sim.bucket.keys(Keys.WAKE)) {
            var entry = WakeKeys.parse(key);
            if (entry.isEmpty()) {
                continue; // waker.json
            }
            CellState durable = restore(sim, entry.get().scope());
            if (durable == null) {
                continue; // a cell no restore may serve: its entry is woken, and refused, for good
            }
            if (!durable.hasAlarm() || !WakeKeys.sameMinute(entry.get().minuteMs(), durable.alarmAt)) {
                sim.checker.fail("no stale wake entry outlives the faults", key + " is left while the cell's durable alarm is "
                        + (durable.hasAlarm() ? "at " + durable.alarmAt : "none"), now);
                return;
            }
        }
    }

    private static void settled(Simulation sim, String scope, long now) {
        SimBucket.Obj own = sim.bucket.current(Keys.ownership(scope));
        List<String> believers = new ArrayList<>();
        for (SimNode n : sim.nodes) {
            if (n.believedEpoch(scope) >= 0) {
                believers.add(n.name + "/" + n.session() + "@e" + n.believedEpoch(scope));
            }
        }
        if (own == null) {
            sim.checker.fail("ownership settles on one live node", scope + " has no ownership record after the final round", now);
            return;
        }
        OwnershipRecord r = OwnershipRecord.decode(own.bytes());
        SimNode owner = r.isReleased() ? null : sim.node(r.node());
        String expected = owner == null ? null : owner.name + "/" + r.session() + "@e" + r.epoch();
        boolean ok = owner != null && owner.up() && owner.session().equals(r.session()) && owner.lease.canServe()
                && believers.equals(List.of(expected));
        if (!ok) {
            sim.checker.fail("ownership settles on one live node", scope + " is recorded as " + r + " but served by " + believers, now);
        }
    }

    /**
     * Judged at the end of the quiet phase, before the final round of writes activates every cell
     * (which would arm and fire any forgotten alarm and hide a broken waker): every acknowledged
     * alarm fired, or was replaced or deleted, in the durable state.
     */
    static void alarms(Simulation sim) {
        long now = sim.loop.now();
        for (String scope : sim.scopes) {
            CellState durable = restore(sim, scope);
            if (durable == null) {
                continue;
            }
            Set<Long> unfired = new TreeSet<>(sim.checker.ackedAlarms.getOrDefault(scope, new TreeSet<>()));
            unfired.removeAll(durable.fired);
            unfired.removeAll(durable.replaced);
            if (!unfired.isEmpty()) {
                sim.checker.fail("every armed alarm eventually fires", scope + ": alarms " + unfired + " never fired (pending: "
                        + (durable.hasAlarm() ? durable.alarmId + " due " + (now - durable.alarmAt) + " ms ago" : "none") + ")", now);
                return;
            }
        }
    }

    /**
     * What an activation would restore now, as the REAL restorer (with the correct pin rule)
     * rebuilds it; null for a cell whose pin the store lost when the restore rightly refuses it (its
     * acknowledged writes are in an epoch no pin accounts for: refusing is what keeps them).
     */
    static CellState restore(Simulation sim, String scope) {
        try {
            return SimDatabase.restore(sim.dbDir, new JudgeView(sim.bucket), scope, Long.MAX_VALUE, PinRule.REFUSE).join().state();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RestoreException && sim.pinsLost.contains(scope)) {
                return null;
            }
            throw e;
        }
    }
}
