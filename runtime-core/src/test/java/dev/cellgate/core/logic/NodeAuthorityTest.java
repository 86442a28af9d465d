package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.LeaseRenewal.FenceKind;
import dev.cellgate.core.logic.NodeAuthority.Next;
import dev.cellgate.core.logic.NodeAuthority.OnFence;
import dev.cellgate.core.logic.NodeAuthority.OnStartFailed;
import dev.cellgate.core.logic.NodeAuthority.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The degraded mode's state machine (issue 29): serving → fenced-degraded → rejoining → serving, or exit. */
class NodeAuthorityTest {
    static final long TTL = 10_000;

    static NodeAuthority serving(boolean exitOnFence) {
        NodeAuthority a = new NodeAuthority("s0", TTL, exitOnFence);
        a.started();
        return a;
    }

    @Test
    void aLapseDegradesAndAReplacementExits() {
        NodeAuthority a = serving(false);
        assertThat(a.fenced("s0", FenceKind.LAPSED, "lease expired", 100)).isEqualTo(new OnFence.Degrade(1));
        assertThat(a.state()).isEqualTo(State.DEGRADED);
        assertThat(a.serving()).isFalse();
        assertThat(a.degraded()).isTrue();
        assertThat(a.cause()).isEqualTo("lease expired");
        assertThat(a.degradedForMs(1_100)).isEqualTo(1_000);

        NodeAuthority b = serving(false);
        assertThat(b.fenced("s0", FenceKind.REPLACED, "lease record was deleted by another writer", 100))
                .isEqualTo(new OnFence.Exit("lease record was deleted by another writer"));
        assertThat(b.state()).isEqualTo(State.EXITING);
        assertThat(b.next(200)).isEqualTo(new Next.Idle());
    }

    @Test
    void withFenceExitEveryFenceExits() {
        NodeAuthority a = serving(true);
        OnFence d = a.fenced("s0", FenceKind.LAPSED, "lease expired", 100);
        assertThat(d).isInstanceOf(OnFence.Exit.class);
        assertThat(((OnFence.Exit) d).why()).contains("lease expired").contains("CELLD_FENCE_EXIT=1");
    }

    @Test
    void aFenceOfAnotherSessionOrWhileDegradedChangesNothing() {
        NodeAuthority a = serving(false);
        assertThat(a.fenced("other", FenceKind.LAPSED, "x", 1)).isInstanceOf(OnFence.Ignore.class);
        assertThat(a.serving()).isTrue();
        a.fenced("s0", FenceKind.LAPSED, "x", 1);
        assertThat(a.fenced("s0", FenceKind.REPLACED, "late answer of the old keeper", 2)).isInstanceOf(OnFence.Ignore.class);
        assertThat(a.state()).isEqualTo(State.DEGRADED);
    }

    @Test
    void probesGoOutAtOnceThenEveryPeriodWithABoundOnThoseUnanswered() {
        NodeAuthority a = serving(false);
        a.fenced("s0", FenceKind.LAPSED, "x", 0);
        long every = a.probeEveryMs();
        assertThat(every).isEqualTo(1_000);
        assertThat(a.next(0)).isEqualTo(new Next.Probe(1));
        a.probeSent(1, 0);
        assertThat(a.next(10)).isEqualTo(new Next.Wait(every - 10));
        long t = 0;
        for (int i = 1; i < NodeAuthority.MAX_PROBES; i++) {
            t += every;
            assertThat(a.next(t)).isEqualTo(new Next.Probe(1));
            a.probeSent(1, t);
        }
        t += every;
        assertThat(a.next(t)).as("every probe out is unanswered: no more").isEqualTo(new Next.Wait(every));
        a.probeFailed(1);
        assertThat(a.next(t)).isEqualTo(new Next.Probe(1));
    }

    @Test
    void aNewSessionStartsOnlyOnceTheCellsStoppedAndTheBucketAnswered() {
        NodeAuthority a = serving(false);
        a.fenced("s0", FenceKind.LAPSED, "x", 0);
        a.probeSent(1, 0);
        a.probeAnswered(1);
        assertThat(a.next(5)).as("the bucket answers, but cells of s0 may still run").isInstanceOf(Next.Wait.class);
        a.cellsStopped(1);
        assertThat(a.next(6)).isEqualTo(new Next.StartSession(1, 2 * TTL));

        NodeAuthority b = serving(false);
        b.fenced("s0", FenceKind.LAPSED, "x", 0);
        b.cellsStopped(1);
        assertThat(b.next(0)).as("cells stopped, the bucket has not answered yet").isEqualTo(new Next.Probe(1));
    }

    @Test
    void aRejoinNeedsANewSessionAndServesUnderIt() {
        NodeAuthority a = degradedAndDue();
        assertThatThrownBy(() -> a.starting(1, "s0")).isInstanceOf(IllegalArgumentException.class);
        a.starting(1, "s1");
        assertThat(a.state()).isEqualTo(State.REJOINING);
        assertThat(a.next(10)).isEqualTo(new Next.Idle());
        assertThat(a.sessionStarted("s9", 20)).as("not the start under way").isNull();
        NodeAuthority.Rejoined r = a.sessionStarted("s1", 7_000);
        assertThat(r).isEqualTo(new NodeAuthority.Rejoined("s0", "s1", 7_000, 1));
        assertThat(a.serving()).isTrue();
        assertThat(a.session()).isEqualTo("s1");
        assertThat(a.deadSessions()).containsExactly("s0");
        assertThat(a.fenced("s0", FenceKind.LAPSED, "the old keeper again", 8_000)).isInstanceOf(OnFence.Ignore.class);
        assertThat(a.fenced("s1", FenceKind.LAPSED, "a second stall", 9_000)).isEqualTo(new OnFence.Degrade(2));
        a.cellsStopped(1);
        assertThat(a.cellsStopped()).as("the first episode's stop says nothing about the second").isFalse();
    }

    @Test
    void aFailedStartProbesAgainAndItsSessionIsDeadUnlessAnotherProcessHoldsTheId() {
        NodeAuthority a = degradedAndDue();
        a.starting(1, "s1");
        assertThat(a.startFailed("s1", false, "did not complete")).isEqualTo(new OnStartFailed.BackToProbing());
        assertThat(a.state()).isEqualTo(State.DEGRADED);
        assertThat(a.deadSessions()).containsExactly("s0", "s1");
        assertThat(a.next(1_000)).as("the bucket must answer again first").isInstanceOf(Next.Probe.class);
        assertThat(a.sessionStarted("s1", 200)).as("the abandoned start landing late is not taken").isNull();
        assertThatThrownBy(() -> a.starting(1, "s1")).as("a dead session is never used again").isInstanceOf(IllegalArgumentException.class);

        NodeAuthority b = degradedAndDue();
        b.starting(1, "s1");
        OnStartFailed f = b.startFailed("s1", true, "node id n1 is held by a live lease of session zz");
        assertThat(f).isInstanceOf(OnStartFailed.Exit.class);
        assertThat(b.state()).isEqualTo(State.EXITING);
    }

    @Test
    void aStopEndsTheRejoin() {
        NodeAuthority a = degradedAndDue();
        assertThat(a.stopping()).as("nothing to hand off").isFalse();
        assertThat(a.next(0)).isEqualTo(new Next.Idle());
        assertThat(serving(false).stopping()).isTrue();
    }

    static NodeAuthority degradedAndDue() {
        NodeAuthority a = serving(false);
        a.fenced("s0", FenceKind.LAPSED, "x", 0);
        a.probeSent(1, 0);
        a.probeAnswered(1);
        a.cellsStopped(1);
        return a;
    }

    /**
     * The rejoin's safety over any order of events: no new session starts while a cell of a fenced
     * session may still run, none reuses a session, and a node serves under one session at a time.
     * Returns the violations seen (empty when safe).
     */
    static List<String> explore(NodeAuthority a, long seed, int steps) {
        Random r = new Random(seed);
        List<String> violations = new ArrayList<>();
        List<String> used = new ArrayList<>(List.of("s0"));
        boolean cellsRunning = false; // cells of the current session's fenced episode still running
        int episodeOfRunning = 0;
        String starting = null;
        long now = 0;
        for (int i = 0; i < steps; i++) {
            now += r.nextInt(700);
            switch (r.nextInt(7)) {
                case 0 -> {
                    OnFence d = a.fenced(a.session(), r.nextInt(10) == 0 ? FenceKind.REPLACED : FenceKind.LAPSED, "f", now);
                    if (d instanceof OnFence.Degrade g) {
                        cellsRunning = true;
                        episodeOfRunning = g.episode();
                    }
                }
                case 1 -> {
                    if (cellsRunning && r.nextBoolean()) {
                        a.cellsStopped(episodeOfRunning);
                        cellsRunning = false;
                    }
                }
                case 2, 3 -> {
                    Next n = a.next(now);
                    if (n instanceof Next.Probe p) {
                        a.probeSent(p.episode(), now);
                    } else if (n instanceof Next.StartSession s) {
                        if (cellsRunning) {
                            violations.add("step " + i + ": a new session starts while cells of the fenced session run");
                        }
                        starting = "s" + used.size();
                        if (used.contains(starting)) {
                            violations.add("step " + i + ": session reused");
                        }
                        used.add(starting);
                        a.starting(s.episode(), starting);
                    }
                }
                case 4 -> {
                    if (r.nextBoolean()) {
                        a.probeAnswered(r.nextInt(3));
                    } else {
                        a.probeFailed(r.nextInt(3));
                    }
                }
                case 5 -> {
                    if (starting != null) {
                        String s = starting;
                        starting = null;
                        if (r.nextInt(4) == 0) {
                            a.startFailed(s, r.nextInt(8) == 0, "failed");
                        } else if (a.sessionStarted(s, now) != null && cellsRunning) {
                            violations.add("step " + i + ": serving under " + s + " while cells of the old session run");
                        }
                    }
                }
                default -> {
                    if (a.serving() && a.deadSessions().contains(a.session())) {
                        violations.add("step " + i + ": serving under a dead session");
                    }
                }
            }
            if (a.state() == State.EXITING) {
                break;
            }
        }
        return violations;
    }

    @Property(tries = 500)
    void noOrderOfEventsRejoinsWhileFencedCellsRun(@ForAll long seed) {
        assertThat(explore(serving(false), seed, 300)).isEmpty();
    }

    @Test
    void theSafetyCheckCatchesARejoinThatDoesNotWaitForTheCells() {
        int caught = 0;
        for (long seed = 0; seed < 200; seed++) {
            NodeAuthority broken = NodeAuthority.brokenRejoinBeforeCellsStoppedForTests("s0", TTL);
            broken.started();
            if (!explore(broken, seed, 300).isEmpty()) {
                caught++;
            }
        }
        assertThat(caught).as("seeds on which the broken variant was caught").isGreaterThan(20);
    }
}
