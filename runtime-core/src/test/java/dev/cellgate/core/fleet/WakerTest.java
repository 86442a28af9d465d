package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.WakerLeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WakerTest {
    static final long TICK = 1_000;
    static final long TTL = 3 * TICK;
    static final long T0 = 1_700_000_040_000L - 1_700_000_040_000L % 60_000;

    @TempDir
    Path dir;
    FileBucketStore bucket;
    final AtomicLong base = new AtomicLong(T0);
    final List<String> woken = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + dir, dir, false);
    }

    @AfterEach
    void close() {
        bucket.close();
    }

    static String scope(int i) {
        return "Alarm:" + String.format("%064x", i);
    }

    Waker waker(String node, long skew, CellWaker host) {
        return waker(node, skew, host, new ManualScheduler(T0));
    }

    Waker waker(String node, long skew, CellWaker host, ManualScheduler sched) {
        return new Waker(bucket, new Self(node, "s-" + node), () -> base.get() + skew, sched, TICK,
                new WakeIndex(bucket), host, new DeadNodeGc(bucket, () -> base.get() + skew, TICK));
    }

    /** A host that arms every cell and reports each entry as its alarm's own (it never deletes one). */
    CellWaker recording() {
        return (scope, minute) -> {
            woken.add(scope);
            return CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT);
        };
    }

    void alarm(int i, long at) throws Exception {
        new WakeIndex(bucket).moved(scope(i), OptionalLong.empty(), OptionalLong.of(at)).get().durable().get();
    }

    void deadNode(String n) throws Exception {
        bucket.put(Keys.lease(n), new LeaseRecord(n, "x", "h:1", 1, 0, T0 - 1 - Liveness.DEFAULT_SKEW_MS, LeaseRecord.Load.IDLE).encode()).get();
    }

    WakerLeaseRecord lease() throws Exception {
        return WakerLeaseRecord.decode(bucket.get(Keys.WAKER).get().orElseThrow().bytes());
    }

    @Test
    void theHolderWakesDueCellsThenRunsTheGc() throws Exception {
        alarm(1, T0 - 120_000);
        alarm(2, T0 + 30_000); // this minute: due (the host arms the exact time)
        alarm(3, T0 + 61_000); // next minute: not yet
        deadNode("gone");
        Waker w = waker("n1", 0, recording());
        Waker.TickReport r = w.tick().get(60, TimeUnit.SECONDS);
        assertThat(r).isEqualTo(new Waker.TickReport(true, true));
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).containsExactly(scope(1), scope(2));
        assertThat(BucketStoreContract.listAll(bucket, Keys.NODES, 10)).isEmpty();
        assertThat(BucketStoreContract.listAll(bucket, Keys.WAKE, 10)).as("only the host consumes entries").hasSize(4);
        assertThat(lease()).isEqualTo(new WakerLeaseRecord("n1", "s-n1", T0 + TTL));
    }

    /**
     * SPEC §18: a scan looks 1.5 ticks ahead (WakeHorizon), so an alarm 0.5 s into the next minute,
     * one second before that minute starts, is woken by this scan rather than a tick later.
     */
    @Test
    void aScanWakesEntriesOfAMinuteThatStartsBeforeTheNextScan() throws Exception {
        long scanAt = T0 + 59_000;
        base.set(scanAt);
        alarm(1, T0 + 60_500); // next minute, within 1.5 ticks
        alarm(2, T0 + 120_500); // beyond the horizon
        Waker w = waker("n1", 0, recording(), new ManualScheduler(scanAt));
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).containsExactly(scope(1));
    }

    /**
     * SPEC §18: scanSoon (a node's first deployment just loaded) starts a pass at once, not at the
     * next tick; asked while a pass runs, another pass follows that one at once.
     */
    @Test
    void scanSoonStartsAPassWithoutWaitingForTheNextTick() throws Exception {
        ManualScheduler sched = new ManualScheduler(T0);
        List<CompletableFuture<WakeEntryVerdict.Reply>> blocked = new CopyOnWriteArrayList<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            woken.add(scope);
            CompletableFuture<WakeEntryVerdict.Reply> f = new CompletableFuture<>();
            blocked.add(f);
            return f;
        }, sched);
        alarm(1, T0 - 1_000);
        w.start();
        sched.advanceTo(T0);
        w.lastTick().get(60, TimeUnit.SECONDS);
        await(() -> blocked.size() == 1);
        w.scanSoon(); // the pass is still running: the request waits for it
        sched.advanceTo(T0);
        w.lastTick().get(60, TimeUnit.SECONDS);
        assertThat(woken).hasSize(1);
        blocked.get(0).complete(WakeEntryVerdict.Reply.KEPT);
        w.currentPass().get(60, TimeUnit.SECONDS);
        sched.advanceTo(T0); // the follow-up tick scanSoon asked for, still before the next tick
        await(() -> blocked.size() == 2);
        blocked.get(1).complete(WakeEntryVerdict.Reply.KEPT);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).containsExactly(scope(1), scope(1));
        assertThat(sched.now()).as("no tick boundary was crossed").isEqualTo(T0);
    }

    /** A wake that failed before the deployment loaded rests; scanSoon forgets that rest, so the entry is tried at once. */
    @Test
    void scanSoonRetriesEntriesThatFailedBeforeTheDeploymentLoaded() throws Exception {
        alarm(1, T0 - 1_000);
        java.util.concurrent.atomic.AtomicBoolean loaded = new java.util.concurrent.atomic.AtomicBoolean();
        ManualScheduler sched = new ManualScheduler(T0);
        Waker w = waker("n1", 0, (scope, minute) -> {
            woken.add(scope);
            return loaded.get() ? CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT)
                    : CompletableFuture.failedFuture(new IllegalStateException("no deployment is loaded on this node"));
        }, sched);
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).hasSize(1);
        loaded.set(true);
        w.scanSoon();
        sched.advanceTo(T0);
        await(() -> woken.size() == 2);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).containsExactly(scope(1), scope(1));
    }

    /** SPEC §18: a crashed node's waker lease (3 ticks long) is taken as soon as its node lease is seen dead. */
    @Test
    void nodeDiedTakesADeadHoldersWakerLeaseAtOnceAndScans() throws Exception {
        bucket.put(Keys.WAKER, new WakerLeaseRecord("gone", "s-gone", T0 + TTL).encode()).get();
        alarm(1, T0 - 1_000);
        ManualScheduler sched = new ManualScheduler(T0);
        Waker w = waker("n1", 0, recording(), sched);
        assertThat(w.tick().get(60, TimeUnit.SECONDS).holder()).as("a live-looking lease is left").isFalse();
        w.nodeDied("gone", "s-gone");
        sched.advanceTo(T0);
        await(() -> woken.size() == 1);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(lease().node()).isEqualTo("n1");
        assertThat(woken).containsExactly(scope(1));
    }

    /**
     * A peer's death says nothing about why other entries failed: their rest stands (only a
     * deployment load, which is what they may have been missing, forgets it).
     */
    @Test
    void nodeDiedScansButKeepsTheRestOfEntriesThatFailed() throws Exception {
        alarm(1, T0 - 1_000);
        ManualScheduler sched = new ManualScheduler(T0);
        Waker w = waker("n1", 0, (scope, minute) -> {
            woken.add(scope);
            return CompletableFuture.failedFuture(new IllegalStateException("the cell's storage is unreadable"));
        }, sched);
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).hasSize(1);
        w.nodeDied("gone", "s-gone");
        assertThat(w.tick().get(60, TimeUnit.SECONDS).passStarted()).isTrue(); // the tick nodeDied asks for
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).as("the failed entry still rests").hasSize(1);
    }

    /** What the waker remembers of dead holders is dropped once the lease no longer names them: it cannot grow without bound. */
    @Test
    void aDeadHolderIsForgottenOnceItsWakerLeaseIsTaken() throws Exception {
        bucket.put(Keys.WAKER, new WakerLeaseRecord("gone", "s-gone", T0 + TTL).encode()).get();
        ManualScheduler sched = new ManualScheduler(T0);
        Waker w = waker("n1", 0, recording(), sched);
        w.nodeDied("gone", "s-gone");
        w.nodeDied("other", "s-other"); // held no waker lease
        sched.advanceTo(T0);
        await(() -> {
            try {
                return lease().node().equals("n1");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        w.currentPass().get(60, TimeUnit.SECONDS);
        w.tick().get(60, TimeUnit.SECONDS); // renews: the lease names only n1 now
        assertThat(w.deadHoldersRemembered()).isZero();
    }

    static void await(java.util.function.BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within 30 s");
            }
            Thread.sleep(10);
        }
    }

    @Test
    void aLiveHolderKeepsOthersOutAndRenewsEveryTick() throws Exception {
        ManualScheduler sched = new ManualScheduler(T0);
        Waker w1 = waker("n1", 0, recording(), sched);
        Waker w2 = waker("n2", 0, recording());
        w1.start();
        for (int i = 0; i < 5; i++) {
            base.set(T0 + i * TICK);
            sched.advanceTo(T0 + i * TICK);
            assertThat(w1.lastTick().get(60, TimeUnit.SECONDS).holder()).isTrue();
            assertThat(lease().expiresMs()).isEqualTo(T0 + i * TICK + TTL);
            w1.currentPass().get(60, TimeUnit.SECONDS);
            assertThat(w2.tick().get(60, TimeUnit.SECONDS).holder()).isFalse();
            assertThat(w1.holds()).isTrue();
        }
    }

    @Test
    void aFailedRenewalCancelsThePassInProgress() throws Exception {
        for (int i = 0; i < 40; i++) {
            alarm(i, T0 - 60_000);
        }
        deadNode("gone");
        List<CompletableFuture<WakeEntryVerdict.Reply>> blocked = new CopyOnWriteArrayList<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            woken.add(scope);
            CompletableFuture<WakeEntryVerdict.Reply> f = new CompletableFuture<>();
            blocked.add(f);
            return f;
        });
        w.tick().get(60, TimeUnit.SECONDS);
        DeadNodeGcTest.awaitTrue(() -> blocked.size() == Waker.WAKE_PARALLELISM);
        // another node takes the lease over (as if ours had expired under its clock)
        bucket.put(Keys.WAKER, new WakerLeaseRecord("n2", "s-n2", T0 + 100 * TICK).encode()).get();
        base.addAndGet(TICK);
        assertThat(w.tick().get(60, TimeUnit.SECONDS).holder()).isFalse();
        assertThat(w.holds()).isFalse();
        blocked.forEach(f -> f.complete(WakeEntryVerdict.Reply.KEPT));
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).as("no wake started after the cancellation").hasSize(Waker.WAKE_PARALLELISM);
        assertThat(BucketStoreContract.listAll(bucket, Keys.NODES, 10)).as("no GC after the cancellation").hasSize(1);
    }

    @Test
    void twoWakersRacingNeverBothHoldForATtl() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        long skew1 = 150;
        long skew2 = -150;
        Waker[] w = {waker("n1", skew1, recording()), waker("n2", skew2, recording())};
        int[] pausedUntil = {0, 0};
        long bothSince = -1;
        long longestBoth = 0;
        int handovers = 0;
        String lastHolder = null;
        for (int round = 0; round < 150; round++) {
            for (int i = 0; i < 2; i++) {
                if (pausedUntil[i] <= round && rnd.nextInt(10) == 0) {
                    pausedUntil[i] = round + 1 + rnd.nextInt(6); // SIGSTOP for up to 6 ticks
                }
            }
            base.set(T0 + round * TICK + rnd.nextLong(TICK / 4));
            List<CompletableFuture<Waker.TickReport>> ticks = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                if (pausedUntil[i] <= round) {
                    ticks.add(w[i].tick());
                }
            }
            for (CompletableFuture<Waker.TickReport> t : ticks) {
                t.get(60, TimeUnit.SECONDS);
            }
            for (Waker x : w) {
                x.currentPass().get(60, TimeUnit.SECONDS);
            }
            // sample the rest of the round
            for (long at = base.get(); at < T0 + (round + 1) * TICK; at += 100) {
                base.set(at);
                boolean both = w[0].holds() && w[1].holds();
                if (both && bothSince < 0) {
                    bothSince = at;
                } else if (!both && bothSince >= 0) {
                    longestBoth = Math.max(longestBoth, at - bothSince);
                    bothSince = -1;
                }
                String holder = w[0].holds() ? "n1" : w[1].holds() ? "n2" : null;
                if (holder != null && !holder.equals(lastHolder)) {
                    handovers += lastHolder == null ? 0 : 1;
                    lastHolder = holder;
                }
            }
        }
        assertThat(handovers).as("the run exercised takeovers").isGreaterThan(3);
        assertThat(bothSince).isLessThan(0);
        assertThat(longestBoth).as("overlap is bounded by the clock skew, far below one TTL").isLessThan(TTL)
                .isLessThanOrEqualTo(Math.abs(skew1 - skew2) + 100);
    }

    @Test
    void doubleHoldersAreHarmlessOnlyWasteful() throws Exception {
        alarm(1, T0 - 60_000);
        deadNode("gone");
        Waker w1 = waker("n1", 0, recording());
        Waker w2 = waker("n2", TTL + Liveness.DEFAULT_SKEW_MS + 500, recording()); // a clock so far ahead it sees n1's lease expired past the margin
        w1.tick().get(60, TimeUnit.SECONDS);
        w2.tick().get(60, TimeUnit.SECONDS);
        assertThat(w1.holds() && w2.holds()).isTrue();
        w1.currentPass().get(60, TimeUnit.SECONDS);
        w2.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(woken).containsOnly(scope(1));
        assertThat(BucketStoreContract.listAll(bucket, Keys.NODES, 10)).isEmpty();
        // n1's next renewal fails: it stops holding
        base.addAndGet(TICK);
        assertThat(w1.tick().get(60, TimeUnit.SECONDS).holder()).isFalse();
    }

    @Test
    void aPassStuckOnAHostThatNeverAnswersIsAbandonedAfterThreeTicks() throws Exception {
        // Found by the simulator (seed 7): the waker poked an owner that was then killed; the poke never
        // answered, the pass never ended, and no later tick ever started a pass: alarms stopped fleet-wide.
        alarm(1, T0 - 60_000);
        List<String> calls = new CopyOnWriteArrayList<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            calls.add(scope);
            return calls.size() == 1 ? new CompletableFuture<>() : CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT);
        });
        for (int tick = 0; tick <= Waker.STALE_PASS_TICKS; tick++) {
            base.set(T0 + tick * TICK);
            assertThat(w.tick().get(60, TimeUnit.SECONDS).passStarted()).as("tick %d", tick)
                    .isEqualTo(tick == 0 || tick == Waker.STALE_PASS_TICKS);
            if (tick == 0) {
                // The pass reads the wake index asynchronously: let it reach the hung poke before the
                // clock moves, else (on a loaded CI box) the first pass is abandoned before it pokes
                // and the second pass is the one that hangs.
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (calls.isEmpty() && System.nanoTime() < end) {
                    Thread.sleep(5);
                }
                assertThat(calls).as("the first pass poked the owner").hasSize(1);
            }
        }
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(calls).containsExactly(scope(1), scope(1));
    }

    @Test
    void aLeaseReadThatNeverAnswersDoesNotStopTheWakerForGood() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean hang = new java.util.concurrent.atomic.AtomicBoolean(true);
        InterceptingStore store = new InterceptingStore(bucket);
        // Decided when the read is made: decided when it is answered, a loaded CI box once let the
        // third tick's read come back first and hang in place of the first one.
        store.hangGet = key -> hang.getAndSet(false);
        Waker w = new Waker(store, new Self("n1", "s-n1"), base::get, new ManualScheduler(T0), TICK, new WakeIndex(store),
                recording(), new DeadNodeGc(store, base::get, TICK));
        CompletableFuture<Waker.TickReport> hung = w.tick();
        base.addAndGet(TICK);
        assertThat(w.tick().get(60, TimeUnit.SECONDS).holder()).as("skipped while the first attempt may still answer").isFalse();
        base.addAndGet(2 * TICK);
        assertThat(w.tick().get(60, TimeUnit.SECONDS).holder()).isTrue();
        assertThat(hung).isNotDone();
    }

    @Test
    void stopGivesTheLeaseUpSoAnotherNodeTakesItAtOnce() throws Exception {
        Waker w1 = waker("n1", 0, recording());
        Waker w2 = waker("n2", 0, recording());
        w1.tick().get(60, TimeUnit.SECONDS);
        assertThat(w2.tick().get(60, TimeUnit.SECONDS).holder()).isFalse();
        w1.stop().get(60, TimeUnit.SECONDS);
        assertThat(w1.holds()).isFalse();
        assertThat(w2.tick().get(60, TimeUnit.SECONDS).holder()).isTrue();
    }

    @Test
    void aMalformedLeaseIsTakenOver() throws Exception {
        bucket.put(Keys.WAKER, "garbage".getBytes(StandardCharsets.UTF_8)).get();
        assertThat(waker("n1", 0, recording()).tick().get(60, TimeUnit.SECONDS).holder()).isTrue();
        assertThat(lease().node()).isEqualTo("n1");
    }

    @Test
    void entriesStayWhenTheHostFailsAndAreWokenAgainNextTick() throws Exception {
        alarm(1, T0 - 60_000);
        List<String> calls = new CopyOnWriteArrayList<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            calls.add(scope);
            return calls.size() == 1 ? CompletableFuture.failedFuture(new IllegalStateException("no capacity"))
                    : CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT);
        });
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(60, TimeUnit.SECONDS);
        base.addAndGet(TICK);
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(60, TimeUnit.SECONDS);
        assertThat(calls).containsExactly(scope(1), scope(1));
        assertThat(BucketStoreContract.listAll(bucket, Keys.WAKE, 10)).contains(WakeKeys.key(T0 - 60_000, scope(1)));
    }

    /** One tick and its pass to the end, then the clock moves a tick on. */
    void fullTick(Waker w) throws Exception {
        w.tick().get(60, TimeUnit.SECONDS);
        w.currentPass().get(120, TimeUnit.SECONDS);
        base.addAndGet(TICK);
    }

    /**
     * A host that follows the {@link CellWaker} contract: it knows each cell's stored alarm (none when
     * absent from the map) and deletes an entry the verdict calls stale.
     */
    CellWaker storedAlarms(Map<String, Long> stored, WakeEntryVerdict verdict) {
        WakeIndex index = new WakeIndex(bucket);
        return (scope, minute) -> {
            woken.add(scope);
            Long at = stored.get(scope);
            if (verdict.forStoredAlarm(minute, at == null ? OptionalLong.empty() : OptionalLong.of(at)) == WakeEntryVerdict.Action.KEEP) {
                return CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT);
            }
            return index.drop(scope, minute).thenApply(x -> WakeEntryVerdict.Reply.DROPPED);
        };
    }

    /**
     * Issue 30, item 8: 1,500 stale entries (their cells' alarms are gone, or moved to a later minute:
     * a crash between the commit and the index move, failed deletes) sort ahead of one real due alarm.
     * They were re-woken every tick forever, and the first 1,000 of them filled every pass, so the
     * real alarm never fired. What went wrong, or nothing.
     */
    List<String> staleEntryProblems(WakeEntryVerdict verdict) throws Exception {
        Map<String, Long> stored = new HashMap<>();
        int stale = 1_500;
        for (int i = 0; i < stale; i++) {
            bucket.put(WakeKeys.key(T0 - 10 * 60_000, scope(i)), new byte[0]).get();
            if (i % 3 == 0) {
                stored.put(scope(i), T0 + 3_600_000); // moved an hour later: that minute has its own entry
                alarm(i, T0 + 3_600_000);
            }
        }
        int real = 9_999;
        alarm(real, T0 - 60_000);
        stored.put(scope(real), T0 - 60_000);
        Waker w = new Waker(bucket, new Self("n1", "s-n1"), base::get, new ManualScheduler(T0), TICK, new WakeIndex(bucket),
                storedAlarms(stored, verdict), new DeadNodeGc(bucket, base::get, TICK),
                Liveness.withSkew(Liveness.DEFAULT_SKEW_MS), verdict);
        int ticks = 0;
        while (!woken.contains(scope(real)) && ticks < 5) {
            fullTick(w);
            ticks++;
        }
        List<String> problems = new ArrayList<>();
        if (!woken.contains(scope(real)) || ticks > 2) {
            problems.add("the real alarm was starved: not woken within 2 ticks (" + ticks + " ticks, " + woken.size() + " wakes)");
        }
        List<String> left = BucketStoreContract.listAll(bucket, Keys.WAKE, 1000).stream()
                .filter(k -> k.startsWith(WakeKeys.minutePrefix(T0 - 10 * 60_000))).toList();
        if (!left.isEmpty()) {
            problems.add(left.size() + " stale entries left in " + WakeKeys.minutePrefix(T0 - 10 * 60_000));
        }
        if (!BucketStoreContract.listAll(bucket, Keys.WAKE, 1000).contains(WakeKeys.key(T0 - 60_000, scope(real)))) {
            problems.add("the real alarm's entry was deleted");
        }
        if (BucketStoreContract.listAll(bucket, WakeKeys.minutePrefix(T0 + 3_600_000), 1000).size() != 500) {
            problems.add("an alarm moved later lost its own entry");
        }
        return problems;
    }

    @Test
    void staleEntriesAheadOfARealAlarmAreDeletedAndDoNotStarveIt() throws Exception {
        assertThat(staleEntryProblems(WakeEntryVerdict.CORRECT)).isEmpty();
    }

    @Test
    void theStaleEntryCheckCatchesAWakerThatNeverDeletesAnEntry() throws Exception {
        assertThat(staleEntryProblems(WakeEntryVerdict.NEVER_DELETES))
                .anySatisfy(p -> assertThat(p).startsWith("the real alarm was starved"))
                .anySatisfy(p -> assertThat(p).contains("stale entries left"));
    }

    /** Entries that keep failing rest (1, 2, 4 … ticks) and the scan pages past them to the ones behind. */
    @Test
    void entriesThatKeepFailingArePagedPastAndRetriedEveryOtherPass() throws Exception {
        int failing = 1_200;
        for (int i = 0; i < failing; i++) {
            bucket.put(WakeKeys.key(T0 - 10 * 60_000, scope(i)), new byte[0]).get();
        }
        int real = 9_999;
        alarm(real, T0 - 60_000);
        Map<String, Integer> calls = new java.util.concurrent.ConcurrentHashMap<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            calls.merge(scope, 1, Integer::sum);
            return scope.equals(scope(real)) ? CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT)
                    : CompletableFuture.failedFuture(new IllegalStateException("restore failed: a gap in the chain"));
        });
        List<Integer> wakesOfTheFirst = new ArrayList<>();
        for (int tick = 0; tick < 8; tick++) {
            fullTick(w);
            wakesOfTheFirst.add(calls.getOrDefault(scope(0), 0));
            if (tick == 1) {
                assertThat(calls).as("the second pass reached the real alarm behind 1,000 failing entries").containsKey(scope(real));
            }
        }
        // woken at ticks 0, 1 (rest 1), 3, 5, 7 (rests of 2: WakeEntryVerdict.MAX_REST_TICKS)
        assertThat(wakesOfTheFirst).containsExactly(1, 2, 2, 3, 3, 4, 4, 5);
        assertThat(BucketStoreContract.listAll(bucket, WakeKeys.minutePrefix(T0 - 10 * 60_000), 2000))
                .as("a failure never deletes an entry").hasSize(failing);
    }

    @Test
    void anEntryWhoseClassIsGoneIsDeletedOnTheSecondPassThatSeesIt() throws Exception {
        alarm(1, T0 - 60_000);
        Waker w = waker("n1", 0, (scope, minute) -> CompletableFuture.completedFuture(WakeEntryVerdict.Reply.NO_CLASS));
        fullTick(w);
        assertThat(BucketStoreContract.listAll(bucket, Keys.WAKE, 10)).as("one sighting is not enough").contains(WakeKeys.key(T0 - 60_000, scope(1)));
        fullTick(w);
        assertThat(BucketStoreContract.listAll(bucket, Keys.WAKE, 10)).doesNotContain(WakeKeys.key(T0 - 60_000, scope(1)));
    }

    @Test
    void anAnswerWithoutAVerdictKeepsTheEntryAndRestsIt() throws Exception {
        alarm(1, T0 - 60_000);
        List<String> calls = new CopyOnWriteArrayList<>();
        Waker w = waker("n1", 0, (scope, minute) -> {
            calls.add(scope);
            return CompletableFuture.completedFuture(WakeEntryVerdict.Reply.UNKNOWN); // an older peer
        });
        for (int tick = 0; tick < 3; tick++) {
            fullTick(w);
        }
        assertThat(calls).as("ticks 0 and 1, then a rest of 2 ticks").hasSize(2);
        assertThat(BucketStoreContract.listAll(bucket, Keys.WAKE, 10)).contains(WakeKeys.key(T0 - 60_000, scope(1)));
    }
}
