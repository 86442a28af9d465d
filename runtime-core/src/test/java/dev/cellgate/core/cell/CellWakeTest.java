package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.time.Ticker;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The cell host's side of wake-index hygiene (issue 30, item 8), with real SQLite cells and a real
 * file bucket: a woken cell judges the due entry against its stored alarm, deletes it when stale,
 * and never deletes the entry of an alarm set meanwhile in the same minute.
 */
class CellWakeTest extends WithCellHost {
    /** Far in the past and far in the future, so no alarm fires during a test. */
    static final long PAST_MINUTE = 1_600_000_020_000L - 1_600_000_020_000L % 60_000;
    static final long LATER = 4_000_000_000_000L;

    /** Holds deletions of wake entries while {@link #held} is incomplete (a slow bucket). */
    static final class HoldingDeletes extends ForwardingBucketStore {
        volatile CompletableFuture<Void> held = CompletableFuture.completedFuture(null);
        final List<String> puts = new CopyOnWriteArrayList<>();

        HoldingDeletes(BucketStore inner) {
            super(inner);
        }

        @Override
        public CompletableFuture<dev.cellgate.core.spi.bucket.WriteOutcome> put(String key, byte[] bytes) {
            puts.add(key);
            return inner.put(key, bytes);
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return key.startsWith(Keys.WAKE) ? held.thenCompose(x -> inner.delete(key)) : inner.delete(key);
        }
    }

    HoldingDeletes indexStore;

    Cells cells() {
        indexStore = new HoldingDeletes(bucket);
        CellsConfig cfg = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 2);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), null, () -> script,
                Ticker.SYSTEM, Executors.newFixedThreadPool(4), () -> true, new WakeIndex(indexStore));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    static CellIdentity id(int i) {
        return CellsLifecycleTest.id(i);
    }

    List<String> wakeKeys() throws Exception {
        return BucketStoreContract.listAll(bucket, Keys.WAKE, 100);
    }

    void staleEntry(CellIdentity id, long minuteMs) throws Exception {
        bucket.put(WakeKeys.key(minuteMs, id.scope()), new byte[0]).get();
    }

    static WakeEntryVerdict.Reply await(CompletableFuture<WakeEntryVerdict.Reply> f) throws Exception {
        return f.get(30, TimeUnit.SECONDS);
    }

    String fetch(Cells c, CellIdentity id, String path) throws Exception {
        return CellsLifecycleTest.body(c.fetch(id, CellsLifecycleTest.get(path)));
    }

    @Test
    void anEntryOfACellWithoutAnAlarmIsDeletedByItsHost() throws Exception {
        Cells c = cells();
        staleEntry(id(1), PAST_MINUTE);
        assertThat(await(c.wake(id(1), OptionalLong.of(PAST_MINUTE)))).isEqualTo(WakeEntryVerdict.Reply.DROPPED);
        assertThat(wakeKeys()).isEmpty();
    }

    @Test
    void anEntryWhoseAlarmMovedIsDeletedAndTheAlarmsOwnEntryStays() throws Exception {
        Cells c = cells();
        assertThat(fetch(c, id(2), "/alarm/" + LATER)).contains(Long.toString(LATER));
        staleEntry(id(2), PAST_MINUTE);
        assertThat(await(c.wake(id(2), OptionalLong.of(PAST_MINUTE)))).isEqualTo(WakeEntryVerdict.Reply.DROPPED);
        assertThat(wakeKeys()).containsExactly(WakeKeys.key(LATER, id(2).scope()));
    }

    @Test
    void theEntryOfTheStoredAlarmStays() throws Exception {
        Cells c = cells();
        fetch(c, id(3), "/alarm/" + LATER);
        assertThat(await(c.wake(id(3), OptionalLong.of(WakeKeys.minuteOf(LATER))))).isEqualTo(WakeEntryVerdict.Reply.KEPT);
        assertThat(wakeKeys()).containsExactly(WakeKeys.key(LATER, id(3).scope()));
    }

    @Test
    void aClassTheDeploymentDoesNotHaveIsReportedWithoutAnActivation() throws Exception {
        Cells c = cells();
        CellIdentity gone = new CellIdentity("Removed", id(4).hex(), null);
        assertThat(await(c.wake(gone, OptionalLong.of(PAST_MINUTE)))).isEqualTo(WakeEntryVerdict.Reply.NO_CLASS);
        assertThat(bucket.get(Keys.ownership(gone.scope())).get()).as("no ownership taken for it").isEmpty();
    }

    /** What became of an alarm set in a stale entry's minute while the host's deletion was on its way. */
    List<String> entryOfAnAlarmSetDuringTheDeletion(WakeEntryVerdict verdict) throws Exception {
        Cells c = cells();
        c.wakeVerdict(verdict);
        CellIdentity id = id(5);
        long minute = WakeKeys.minuteOf(LATER);
        fetch(c, id, "/alarm/none"); // resident, no alarm
        staleEntry(id, minute);
        CompletableFuture<Void> release = new CompletableFuture<>();
        indexStore.held = release;
        CompletableFuture<WakeEntryVerdict.Reply> judged = c.wake(id, OptionalLong.of(minute));
        // the judgement is made on the cell's executor before the next event: the deletion is on its way
        CompletableFuture<HttpResponseData> set = c.fetch(id, CellsLifecycleTest.get("/alarm/" + (LATER + 1)));
        Thread.sleep(300); // the alarm is set by now: give an unordered entry write every chance to land first
        release.complete(null);
        assertThat(await(judged)).isEqualTo(WakeEntryVerdict.Reply.DROPPED);
        assertThat(CellsLifecycleTest.body(set)).contains(Long.toString(LATER + 1));
        return wakeKeys();
    }

    @Test
    void anAlarmSetInTheStaleEntrysMinuteWhileItIsDeletedKeepsItsEntry() throws Exception {
        assertThat(entryOfAnAlarmSetDuringTheDeletion(WakeEntryVerdict.CORRECT)).containsExactly(WakeKeys.key(LATER + 1, id(5).scope()));
    }

    @Test
    void theRaceCheckCatchesAHostThatDeletesOutOfOrder() throws Exception {
        assertThat(entryOfAnAlarmSetDuringTheDeletion(WakeEntryVerdict.DROPS_OUT_OF_ORDER))
                .as("the deletion landed after the new alarm's entry: the alarm has none").isEmpty();
    }

    /**
     * A peer took the cell over (a later epoch in own.json) while this node still holds its copy, and
     * wrote the entry of its own alarm; then the peer died. What is left of that entry after this
     * node's stale copy was asked about it (the simulator's seed 4685).
     */
    Throwable staleCopyRefused;

    List<String> theNewOwnersEntryAfterAStaleCopyJudgedIt(WakeEntryVerdict verdict) throws Exception {
        Cells c = cells();
        c.wakeVerdict(verdict);
        CellIdentity id = id(6);
        fetch(c, id, "/alarm/none"); // resident here at epoch 1, no alarm
        bucket.put(Keys.ownership(id.scope()), new dev.cellgate.core.records.OwnershipRecord("n2", "s2", 2).encode()).get();
        staleEntry(id, PAST_MINUTE); // the new owner's alarm
        CompletableFuture<WakeEntryVerdict.Reply> judged = c.wake(id, OptionalLong.of(PAST_MINUTE));
        staleCopyRefused = null;
        try {
            judged.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            staleCopyRefused = e.getCause();
        }
        return wakeKeys();
    }

    @Test
    void aCopyATakeoverSupersededDoesNotDeleteTheNewOwnersEntry() throws Exception {
        assertThat(theNewOwnersEntryAfterAStaleCopyJudgedIt(WakeEntryVerdict.CORRECT))
                .containsExactly(WakeKeys.key(PAST_MINUTE, id(6).scope()));
        assertThat(staleCopyRefused).as("the wake fails, so the waker looks again once the cell lives elsewhere")
                .hasMessageContaining("no longer owned here");
    }

    @Test
    void theOwnershipCheckCatchesAHostThatJudgesWithoutIt() throws Exception {
        assertThat(theNewOwnersEntryAfterAStaleCopyJudgedIt(WakeEntryVerdict.SKIPS_OWNERSHIP_CHECK))
                .as("the superseded copy deleted the new owner's entry: its alarm is lost if that owner dies").isEmpty();
    }
}
