package dev.cellgate.sim;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The properties, judged on the bucket's history as it happens (each applied change is reported
 * here) and on what clients were told; the end-of-run ones are in {@link FinalChecks}. The first
 * violation is kept and the run stops at it.
 * <ol>
 * <li><b>one writer per (cell, epoch)</b>: every object under {@code cells/<scope>/e<N>/} is written
 * by one process session;</li>
 * <li><b>no acknowledged write lost</b> ({@link FinalChecks}): what a restore reads at the end holds
 * every write a client was told succeeded;</li>
 * <li><b>an expired lease never comes back</b>: a process never issues a renewal a TTL or more (true
 * time: its monotonic clock) after it issued the write it renews, whatever its wall clock says (it
 * may have stepped back), and a session whose lease was tombstoned, deleted or replaced never writes
 * it again;</li>
 * <li><b>a live lease is never retired</b>: whoever deletes a node's lease deletes the version it last
 * read (judged dead) or its own tombstone of it, never a record written after it looked;</li>
 * <li><b>no takeover from a live owner</b> (below);</li>
 * <li><b>an owner stops serving before its cell is taken over</b> (SPEC §20): when a takeover lands,
 * the previous owner's process, if alive, no longer accepts calls for the cell. Judged in seeds whose
 * clocks all stay within the margin of true time (two clocks then differ by at most twice the margin,
 * which the rules tolerate: own validity ends a margin before the expiry, peers judge a margin after);
 * it is what the clock-skew margin exists for;</li>
 * <li><b>a call runs at most once</b>: a client call that reached a cell is never run again (the
 * router re-sends only what provably did not run);</li>
 * <li><b>every armed alarm eventually fires</b> and <b>ownership settles on one live node</b> once
 * the faults stop ({@link FinalChecks}).</li>
 * </ol>
 *
 * <p>Why "no takeover from a live owner" is its own property: the output gate (upload, then
 * confirm the ownership record, then acknowledge) keeps every acknowledged write safe even when a
 * cell is taken from an owner that is still alive, and the epoch CAS keeps one writer per epoch.
 * So a takeover that skips the owner's lease check breaks neither of those: it breaks the lease
 * contract itself (a live owner goes on serving reads of a cell someone else now writes: stale
 * reads, split brain for readers). Settling would catch it only if the workload kept flapping the
 * cell after the faults stop. The check: when a takeover's CAS lands at time t, look at the
 * previous owner's lease record over the whole acquire call [t0, t]. The taker read it at some
 * instant s in that window and found it missing, of another session, or with
 * {@code expires_ms + margin <= its wall clock at s} (the simulator knows that clock exactly, steps
 * back included). So if the record belonged to the owner's session and stayed above the highest the
 * taker's clock read in each stretch of the window, no correct check could have let it through. Correct code cannot trip it whatever the renewal races; a
 * takeover that skips the check trips it whenever the owner renews normally.
 */
final class Checker {
    private final long margin;
    private final long ttl;
    private final World world;

    /** What the checker may ask of the simulated fleet. */
    interface World {
        SimClock clock(String node);

        boolean clocksWithinMargin();

        /** The process ({@code node}, {@code session}) is alive, holds a valid lease and serves {@code scope}. */
        boolean stillServes(String node, String session, String scope);
    }
    private SimFailure first;
    private long firstAt;

    private final Map<String, String> epochWriter = new HashMap<>();
    private final Map<String, Long> acquireStarts = new HashMap<>();
    private final Map<String, List<LeaseVersion>> leaseHistory = new HashMap<>();
    private final Set<String> retiredSessions = new HashSet<>();
    /**
     * Sessions whose start completed: they hold (or held) authority. A lease retired while its process
     * was still starting (its first write landed, its answer was lost, dead-node GC with a clock far
     * ahead deleted it) gave that process nothing to revive; its start writes a first lease again.
     */
    private final Set<String> heldSessions = new HashSet<>();
    private final Map<String, LastRead> lastLeaseRead = new HashMap<>();
    final Map<String, TreeSet<Long>> ackedWrites = new TreeMap<>();
    final Map<String, TreeSet<Long>> ackedAlarms = new TreeMap<>();
    long acks;
    long takeovers;
    long wakeActivations;
    long alarmsFired;
    long casRejected;

    private record LeaseVersion(long at, LeaseRecord record) {
    }

    private record LastRead(long at, SimBucket.Obj seen) {
    }

    /** Decoded leases by version: each is decoded once, however often it is read. */
    private final Map<String, LeaseRecord> decoded = new HashMap<>();

    /**
     * Off only in the test that shows the margin's harm is caught by itself: then "no takeover from a
     * live owner" (the rule) is not judged and "an owner stops serving…" (the harm) must catch it.
     */
    boolean judgeTakeoverRule = true;

    /** Where lease and ownership changes are traced when a seed is replayed; null otherwise. */
    BiConsumer<String, String> tracer;

    Checker(long margin, long ttl, World world) {
        this.margin = margin;
        this.ttl = ttl;
        this.world = world;
    }

    private void trace(SimProcess who, String what) {
        if (tracer != null) {
            tracer.accept(who.node, what);
        }
    }

    SimFailure failure() {
        return first;
    }

    long failureAt() {
        return firstAt;
    }

    void fail(String property, String detail, long now) {
        if (first == null) {
            first = new SimFailure(property, detail);
            firstAt = now;
        }
    }

    // ------------------------------------------------------------ what nodes report

    /** The process {@code session} of {@code node} completed its start: it holds its lease. */
    void started(String node, String session) {
        heldSessions.add(node + "|" + session);
    }

    private void retire(String node, String session) {
        if (heldSessions.contains(node + "|" + session)) {
            retiredSessions.add(node + "|" + session);
        }
    }

    void acquireStarted(String session, String scope, long now) {
        acquireStarts.put(session + "|" + scope, now);
    }

    void acquireEnded(String session, String scope) {
        acquireStarts.remove(session + "|" + scope);
    }

    /** Where each client call ran first: a call that may have run is never run again (SPEC §20). */
    private final Map<Long, String> ranOn = new HashMap<>();

    /** A cell starts running client call {@code id}. */
    void ran(long id, SimProcess where, String scope, long now) {
        String first = ranOn.putIfAbsent(id, where + " (" + scope + ")");
        if (first != null) {
            fail("a call runs at most once", "call " + id + " ran on " + first + " and again on " + where, now);
        }
    }

    void ackedWrite(String scope, long id) {
        ackedWrites.computeIfAbsent(scope, s -> new TreeSet<>()).add(id);
        acks++;
    }

    void ackedAlarm(String scope, long id) {
        ackedAlarms.computeIfAbsent(scope, s -> new TreeSet<>()).add(id);
        acks++;
    }

    // ------------------------------------------------------------ what the bucket reports

    void onRead(SimProcess reader, String component, String key, SimBucket.Obj o, long now) {
        if (Keys.nodeOfLeaseKey(key) != null) {
            if (tracer != null) {
                trace(reader, "read " + key + (o == null ? " (absent)" : " " + o.version()));
            }
            lastLeaseRead.put(reader.session + "|" + component + "|" + key, new LastRead(now, o));
        }
    }

    void onWrite(String key, SimBucket.Obj before, SimBucket.Obj after, SimProcess w, long issuerClock, long now) {
        String node = Keys.nodeOfLeaseKey(key);
        if (tracer != null && (node != null || key.endsWith("/own.json") || (key.startsWith("wake/") && !key.equals(Keys.WAKER))
                || key.contains("/e"))) {
            String content = key.endsWith(".seg") ? "(" + after.bytes().length + " bytes)" // a segment: binary
                    : new String(after.bytes(), StandardCharsets.UTF_8);
            trace(w, "wrote " + key + " " + content + " " + after.version());
        }
        if (node != null) {
            leaseWritten(node, before, after, w, issuerClock, now);
        } else if (key.startsWith("cells/") && key.endsWith("/own.json")) {
            ownershipWritten(key.substring("cells/".length(), key.length() - "/own.json".length()), before, after, w, now);
        } else if (key.startsWith("cells/")) {
            String scope = key.substring("cells/".length(), key.indexOf('/', "cells/".length()));
            ObjectKey lineageObject = new LineageKeys(scope).parse(key);
            long epoch = lineageObject == null ? -1 : lineageObject.epoch();
            String prev = epochWriter.putIfAbsent(scope + "|" + epoch, w.session);
            if (prev != null && !prev.equals(w.session)) {
                fail("one writer per (cell, epoch)", scope + " epoch " + epoch + " written by sessions " + prev
                        + " and " + w.session + " (" + key + ")", now);
            }
        }
    }

    void onDelete(String key, SimBucket.Obj before, SimProcess w, String component, long now) {
        String node = Keys.nodeOfLeaseKey(key);
        if (tracer != null) {
            trace(w, "deleted " + key + (before == null ? " (absent)" : " " + before.version()));
        }
        if (node == null || before == null) {
            return;
        }
        LeaseRecord r = lease(before);
        retire(node, r.session());
        history(node).add(new LeaseVersion(now, null));
        if (r.isTombstone() || r.session().equals(w.session)) {
            return; // a tombstone, or the node deleting its own lease at shutdown
        }
        LastRead read = lastLeaseRead.get(w.session + "|" + component + "|" + key);
        if (read != null && before.at() > read.at()) {
            fail("a live lease is never retired", w + " (" + component + ") deleted " + key + " (session " + r.session()
                    + ", expires " + r.expiresMs() + ") written at " + before.at() + ", after the deleter last read it at "
                    + read.at() + (read.seen() == null ? " (absent)" : " (session " + lease(read.seen()).session() + ")"), now);
        }
    }

    private void leaseWritten(String node, SimBucket.Obj before, SimBucket.Obj after, SimProcess w, long issuerClock, long now) {
        LeaseRecord a = lease(after);
        LeaseRecord b = before == null ? null : lease(before);
        history(node).add(new LeaseVersion(now, a));
        if (a.session().equals(w.session) && !a.isTombstone()) {
            if (retiredSessions.contains(node + "|" + w.session)) {
                fail("an expired lease never comes back", w + " wrote its lease again after it was retired", now);
            }
            // (a process still starting may write its first lease again: it never held the one before)
            if (b != null && b.session().equals(w.session) && heldSessions.contains(node + "|" + w.session)
                    && after.issuedAt() >= before.issuedAt() + ttl) {
                fail("an expired lease never comes back", w + " renewed at " + after.issuedAt() + " (its wall clock "
                        + issuerClock + "), a TTL or more after it issued the write it renews at " + before.issuedAt()
                        + " (published expiry " + b.expiresMs() + ")", now);
            }
        }
        if (b != null && (!b.session().equals(a.session()) || a.isTombstone())) {
            retire(node, b.session());
        }
    }

    private void ownershipWritten(String scope, SimBucket.Obj before, SimBucket.Obj after, SimProcess w, long now) {
        OwnershipRecord a = OwnershipRecord.decode(after.bytes());
        if (a.isReleased() || before == null) {
            return;
        }
        OwnershipRecord b = OwnershipRecord.decode(before.bytes());
        if (b.isReleased() || b.session().equals(a.session())) {
            return;
        }
        takeovers++;
        Long t0 = acquireStarts.get(w.session + "|" + scope);
        // the harm first (a stale owner still serving), then the rule that prevents it
        if (world.clocksWithinMargin() && world.stillServes(b.node(), b.session(), scope)) {
            fail("an owner stops serving before its cell is taken over", w + " took " + scope + " at epoch " + a.epoch()
                    + " while " + b.node() + "/" + b.session() + " still held a valid lease and served it at epoch " + b.epoch(), now);
        }
        if (judgeTakeoverRule && leaseLiveThroughout(b.node(), b.session(), t0 == null ? now : t0, now, world.clock(w.node))) {
            fail("no takeover from a live owner", w + " took " + scope + " at epoch " + a.epoch() + " from "
                    + b.node() + "/" + b.session() + " whose lease stayed live through the acquire [" + t0 + ", " + now + "]", now);
        }
    }

    /**
     * The lease of ({@code node}, {@code session}) had {@code expires_ms + margin} above the taker's wall
     * clock at every instant of [from, to].
     */
    private boolean leaseLiveThroughout(String node, String session, long from, long to, SimClock takerClock) {
        List<LeaseVersion> h = leaseHistory.getOrDefault(node, List.of());
        LeaseRecord cur = null;
        int i = 0;
        while (i < h.size() && h.get(i).at() <= from) {
            cur = h.get(i++).record();
        }
        long pieceStart = from;
        while (true) {
            boolean more = i < h.size() && h.get(i).at() <= to;
            long end = more ? h.get(i).at() : to;
            if (cur == null || !cur.node().equals(node) || !cur.session().equals(session) || cur.isTombstone()
                    || cur.expiresMs() + margin <= takerClock.maxOver(pieceStart, end)) {
                return false;
            }
            if (!more) {
                return true;
            }
            pieceStart = end;
            cur = h.get(i++).record();
        }
    }

    private List<LeaseVersion> history(String node) {
        return leaseHistory.computeIfAbsent(node, n -> new ArrayList<>());
    }

    private LeaseRecord lease(SimBucket.Obj o) {
        return decoded.computeIfAbsent(o.version(), v -> LeaseRecord.decode(o.bytes()));
    }
}
