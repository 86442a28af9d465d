package dev.cellgate.core.logic;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Whether this node may serve cells, and what it does when it loses its lease (SPEC §18, issue 29):
 * serving → fenced-degraded → rejoining → serving, or exit. Pure: the node feeds it what happened
 * (a fence and its kind, cells stopped, probe answers, a new session's start) with the monotonic
 * time, and does what it says. One instance per process, called under one lock.
 *
 * <p><b>A lapse degrades, a replacement exits.</b> A lease that LAPSED (no renewal landed while it was
 * valid: a bucket that stopped answering, a paused or starved process) says nothing about anyone
 * else: the node stops every cell (nothing served that could lose a write), keeps its process and
 * its stateless Worker traffic, and rejoins under a NEW session once the bucket answers. A lease
 * REPLACED by another writer (deleted, tombstoned, another session) means something else acts under
 * this node's name: exit 3, as before. {@code CELLD_FENCE_EXIT=1} makes every fence an exit.
 *
 * <p><b>Safety of the rejoin.</b> The new session's lease is written only after every cell of the
 * old session is gone ({@link #cellsStopped}): the moment peers read the new session, they judge the
 * old session's ownership records dead and may take those cells over at once, so nothing of the old
 * session may run any more. The old session is never used again ({@link #deadSessions}); cells come
 * back on demand as takeovers at epoch+1 with the normal restore (their local files were wiped when
 * they stopped). A start that did not finish in time is abandoned and its session counted dead too:
 * its write may still land, and is then written over like the old session's.
 *
 * <p><b>When to rejoin.</b> Only once the bucket answered a probe (a read of this node's lease
 * record): a start against a bucket that does not answer would hang on the store's own timeouts.
 * Probes go out every {@link #probeEveryMs()} with at most {@value #MAX_PROBES} unanswered, so a
 * probe stuck on a dead connection never hides a bucket that came back.
 */
public final class NodeAuthority {

    public enum State { STARTING, SERVING, DEGRADED, REJOINING, EXITING, STOPPED }

    /** At most this many probes unanswered at once (each may hang until the store's attempt timeout). */
    public static final int MAX_PROBES = 4;

    /** What to do about a fence of the lease. */
    public sealed interface OnFence {
        /** Not the current session's, or not while serving (a stop, an exit, a degrade under way). */
        record Ignore(String why) implements OnFence {
        }

        /** Exit 3: the lease was replaced, or the operator asked for it (CELLD_FENCE_EXIT=1). */
        record Exit(String why) implements OnFence {
        }

        /** Stop every cell, keep the process and its stateless traffic, and rejoin (episode {@code episode}). */
        record Degrade(int episode) implements OnFence {
        }
    }

    /** What a degraded node does next. */
    public sealed interface Next {
        /** Send one reachability probe now (then {@link #probeSent}). */
        record Probe(int episode) implements Next {
        }

        /** Start a new session's lease now (then {@link #starting}); abandon it after {@code deadlineMs}. */
        record StartSession(int episode, long deadlineMs) implements Next {
        }

        /** Nothing due: ask again in {@code ms}, or when something happens. */
        record Wait(long ms) implements Next {
        }

        /** Nothing to do in this state. */
        record Idle() implements Next {
        }
    }

    /** A new session's start failed or was abandoned. */
    public sealed interface OnStartFailed {
        /** Stale (not the start under way): nothing changes. */
        record Ignore() implements OnStartFailed {
        }

        /** Probe again, then start another session. */
        record BackToProbing() implements OnStartFailed {
        }

        /** Another live process holds this node id: exit 3. */
        record Exit(String why) implements OnStartFailed {
        }
    }

    /** A rejoin that completed: the session it replaced and how long the node did not serve cells. */
    public record Rejoined(String previousSession, String session, long degradedMs, int rejoins) {
    }

    private final long ttlMs;
    private final boolean exitOnFence;
    private final boolean brokenRejoinBeforeCellsStopped;
    private final Set<String> deadSessions = new LinkedHashSet<>();
    private State state = State.STARTING;
    private String session;
    private int episode;
    private long degradedSinceMono;
    private String cause;
    private boolean cellsStopped;
    private boolean bucketAnswered;
    private int probesOut;
    private long lastProbeMono;
    private boolean probed;
    private String starting;
    private int rejoins;

    /**
     * @param firstSession the session this process starts with
     * @param exitOnFence  {@code CELLD_FENCE_EXIT=1}: every fence exits (a supervisor restarts the node)
     */
    public NodeAuthority(String firstSession, long ttlMs, boolean exitOnFence) {
        this(firstSession, ttlMs, exitOnFence, false);
    }

    private NodeAuthority(String firstSession, long ttlMs, boolean exitOnFence, boolean brokenRejoinBeforeCellsStopped) {
        if (ttlMs < 1) {
            throw new IllegalArgumentException("TTL must be positive, got " + ttlMs);
        }
        this.session = firstSession;
        this.ttlMs = ttlMs;
        this.exitOnFence = exitOnFence;
        this.brokenRejoinBeforeCellsStopped = brokenRejoinBeforeCellsStopped;
    }

    /**
     * BROKEN ON PURPOSE, for the test that shows the rejoin safety check catches it: starts the new
     * session as soon as the bucket answers, while cells of the old session may still run.
     */
    public static NodeAuthority brokenRejoinBeforeCellsStoppedForTests(String firstSession, long ttlMs) {
        return new NodeAuthority(firstSession, ttlMs, false, true);
    }

    public State state() {
        return state;
    }

    /** The current session (the one serving, or the last one that did). */
    public String session() {
        return session;
    }

    /** Sessions of this process that are over: held and fenced, or started and abandoned. */
    public Set<String> deadSessions() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(deadSessions));
    }

    /** True while the node holds its authority (its lease keeper decides the rest: validity on the monotonic clock). */
    public boolean serving() {
        return state == State.SERVING;
    }

    /** True from a degrading fence until the rejoin completed. */
    public boolean degraded() {
        return state == State.DEGRADED || state == State.REJOINING;
    }

    /** Why the node degraded (the fence's cause), while it is. */
    public String cause() {
        return degraded() ? cause : null;
    }

    /** How long the node has not served cells, while degraded (0 otherwise). */
    public long degradedForMs(long nowMono) {
        return degraded() ? Math.max(0, nowMono - degradedSinceMono) : 0;
    }

    public int rejoins() {
        return rejoins;
    }

    /** How often a degraded node probes the bucket: TTL/10, within 100 ms..1 s. */
    public long probeEveryMs() {
        return Math.max(100, Math.min(1_000, ttlMs / 10));
    }

    /** How long a new session's start may take before it is abandoned (the bucket stalled again). */
    public long startDeadlineMs() {
        return 2 * ttlMs;
    }

    /** The first lease landed. */
    public void started() {
        if (state == State.STARTING) {
            state = State.SERVING;
        }
    }

    /**
     * The lease keeper of {@code fencedSession} fenced with {@code kind}.
     */
    public OnFence fenced(String fencedSession, LeaseRenewal.FenceKind kind, String why, long nowMono) {
        if (state == State.STARTING && rejoins == 0) {
            state = State.SERVING; // a keeper fences only a lease it held: the first one landed just now
        }
        if (state != State.SERVING) {
            return new OnFence.Ignore("not serving (" + state + ")");
        }
        if (!fencedSession.equals(session)) {
            return new OnFence.Ignore("session " + fencedSession + " is not the current one (" + session + ")");
        }
        deadSessions.add(fencedSession);
        if (kind == LeaseRenewal.FenceKind.REPLACED) {
            state = State.EXITING;
            return new OnFence.Exit(why);
        }
        if (exitOnFence) {
            state = State.EXITING;
            return new OnFence.Exit(why + " (CELLD_FENCE_EXIT=1: exit instead of degrading)");
        }
        state = State.DEGRADED;
        episode++;
        cause = why;
        degradedSinceMono = nowMono;
        cellsStopped = false;
        bucketAnswered = false;
        probesOut = 0;
        probed = false;
        starting = null;
        return new OnFence.Degrade(episode);
    }

    /** Every cell of the session fenced in {@code ofEpisode} is gone: nothing of it runs any more. */
    public void cellsStopped(int ofEpisode) {
        if (ofEpisode == episode && degraded()) {
            cellsStopped = true;
        }
    }

    /** Whether the cells of the current episode are known to be stopped (for /state and tests). */
    public boolean cellsStopped() {
        return cellsStopped;
    }

    /** What a degraded node does now. */
    public Next next(long nowMono) {
        if (state != State.DEGRADED) {
            return new Next.Idle();
        }
        if (bucketAnswered && (cellsStopped || brokenRejoinBeforeCellsStopped)) {
            return new Next.StartSession(episode, startDeadlineMs());
        }
        if (bucketAnswered) {
            return new Next.Wait(probeEveryMs()); // the cells' stop completes the wait (the node asks again then)
        }
        long since = nowMono - lastProbeMono;
        if (probesOut < MAX_PROBES && (!probed || since >= probeEveryMs())) {
            return new Next.Probe(episode);
        }
        return new Next.Wait(probesOut >= MAX_PROBES ? probeEveryMs() : Math.max(1, probeEveryMs() - since));
    }

    public void probeSent(int ofEpisode, long nowMono) {
        if (ofEpisode == episode && state == State.DEGRADED) {
            probesOut++;
            probed = true;
            lastProbeMono = nowMono;
        }
    }

    /** A probe got an answer from the bucket (any answer: found or not found). True for the first one that counts. */
    public boolean probeAnswered(int ofEpisode) {
        if (ofEpisode == episode && degraded()) {
            probesOut = Math.max(0, probesOut - 1);
            boolean first = !bucketAnswered && state == State.DEGRADED;
            bucketAnswered = true;
            return first;
        }
        return false;
    }

    /** A probe failed (an error, a timeout): the bucket still does not answer. */
    public void probeFailed(int ofEpisode) {
        if (ofEpisode == episode && degraded()) {
            probesOut = Math.max(0, probesOut - 1);
        }
    }

    /** The node starts {@code newSession}'s lease for the rejoin of {@code ofEpisode}. */
    public void starting(int ofEpisode, String newSession) {
        if (ofEpisode != episode || state != State.DEGRADED) {
            throw new IllegalStateException("no rejoin is due (episode " + ofEpisode + ", state " + state + ")");
        }
        if (newSession.equals(session) || deadSessions.contains(newSession)) {
            throw new IllegalArgumentException("a rejoin needs a new session, got " + newSession);
        }
        state = State.REJOINING;
        starting = newSession;
    }

    /**
     * The lease of {@code newSession} landed: the node serves again under it. Null when it is not the
     * start under way (an abandoned start that completed late: the caller stops that keeper).
     */
    public Rejoined sessionStarted(String newSession, long nowMono) {
        if (state != State.REJOINING || !newSession.equals(starting)) {
            return null;
        }
        String previous = session;
        session = newSession;
        starting = null;
        state = State.SERVING;
        rejoins++;
        return new Rejoined(previous, newSession, Math.max(0, nowMono - degradedSinceMono), rejoins);
    }

    /**
     * The start of {@code newSession} failed or was abandoned at its deadline. Its write may still
     * land: the session is counted dead, so the next start writes over it.
     *
     * @param anotherLiveSession the record showed a live lease of a session that is not this process's
     */
    public OnStartFailed startFailed(String newSession, boolean anotherLiveSession, String why) {
        if (state != State.REJOINING || !newSession.equals(starting)) {
            return new OnStartFailed.Ignore();
        }
        deadSessions.add(newSession);
        starting = null;
        if (anotherLiveSession) {
            state = State.EXITING;
            return new OnStartFailed.Exit("another process holds this node id: " + why);
        }
        state = State.DEGRADED;
        bucketAnswered = false;
        return new OnStartFailed.BackToProbing();
    }

    /** A graceful stop began: nothing is rejoined any more. True when the node was serving (cells to hand off). */
    public boolean stopping() {
        boolean wasServing = state == State.SERVING;
        if (state != State.EXITING) {
            state = State.STOPPED;
        }
        return wasServing;
    }
}
