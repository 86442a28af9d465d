package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WakeIndexTest {
    static final long MIN = 60_000;
    static final long T = 1_700_000_040_000L - 1_700_000_040_000L % MIN; // a minute start
    static final String A = "Alarm:" + "0a".repeat(32);
    static final String B = "Alarm:" + "0b".repeat(32);

    @TempDir
    Path dir;
    FileBucketStore bucket;
    InterceptingStore store;
    WakeIndex index;

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + dir, dir, false);
        store = new InterceptingStore(bucket);
        index = new WakeIndex(store);
    }

    @AfterEach
    void close() {
        bucket.close();
    }

    List<String> entries() throws Exception {
        return BucketStoreContract.listAll(bucket, Keys.WAKE, 100);
    }

    void move(String scope, OptionalLong prev, OptionalLong next) throws Exception {
        index.moved(scope, prev, next).get().durable().get();
    }

    @Test
    void setChangeAndDeleteKeepExactlyTheCurrentMinute() throws Exception {
        move(A, OptionalLong.empty(), OptionalLong.of(T + 5_000));
        assertThat(entries()).containsExactly(WakeKeys.key(T, A));
        move(A, OptionalLong.of(T + 5_000), OptionalLong.of(T + 50_000)); // same minute
        assertThat(entries()).containsExactly(WakeKeys.key(T, A));
        assertThat(store.deletes).as("the shared entry is not deleted").isEmpty();
        move(A, OptionalLong.of(T + 50_000), OptionalLong.of(T + 3 * MIN));
        assertThat(entries()).containsExactly(WakeKeys.key(T + 3 * MIN, A));
        move(A, OptionalLong.of(T + 3 * MIN), OptionalLong.empty());
        assertThat(entries()).isEmpty();
    }

    @Test
    void thePreviousEntryStaysUntilTheChangeIsDurable() throws Exception {
        move(A, OptionalLong.empty(), OptionalLong.of(T));
        WakeIndex.Move m = index.moved(A, OptionalLong.of(T), OptionalLong.of(T + 5 * MIN)).get();
        assertThat(entries()).as("both while the change is in flight").containsExactly(WakeKeys.key(T, A), WakeKeys.key(T + 5 * MIN, A));
        m.durable().get();
        assertThat(entries()).containsExactly(WakeKeys.key(T + 5 * MIN, A));
        WakeIndex.Move delete = index.moved(A, OptionalLong.of(T + 5 * MIN), OptionalLong.empty()).get();
        assertThat(entries()).as("a delete that is not durable yet keeps the entry").hasSize(1);
        delete.durable().get();
        assertThat(entries()).isEmpty();
    }

    @Test
    void aNewEntryThatMayNotBeDurableFailsTheMoveAndKeepsTheOldOne() throws Exception {
        move(A, OptionalLong.empty(), OptionalLong.of(T));
        store.ambiguousPut = k -> true;
        assertThatThrownBy(() -> index.moved(A, OptionalLong.of(T), OptionalLong.of(T + 5 * MIN)).get())
                .isInstanceOf(ExecutionException.class).hasMessageContaining("not written");
        assertThat(entries()).containsExactly(WakeKeys.key(T, A));
    }

    @Test
    void aFailedRemovalOfTheOldEntryOnlyLeavesAStaleEntry() throws Exception {
        move(A, OptionalLong.empty(), OptionalLong.of(T));
        store.failDelete = k -> true;
        move(A, OptionalLong.of(T), OptionalLong.of(T + 5 * MIN));
        assertThat(entries()).containsExactly(WakeKeys.key(T, A), WakeKeys.key(T + 5 * MIN, A));
    }

    @Test
    void consumedRemovesTheEntryUnlessTheNextAlarmSharesItsMinute() throws Exception {
        move(A, OptionalLong.empty(), OptionalLong.of(T + 1_000));
        index.consumed(A, T + 1_000, OptionalLong.of(T + 30_000)).get(); // the handler re-armed within the minute
        assertThat(entries()).containsExactly(WakeKeys.key(T, A));
        index.consumed(A, T + 30_000).get();
        assertThat(entries()).isEmpty();
    }

    @Test
    void dueListsMinutesThatHaveBegunInTimeOrderAndStopsAtTheFuture() throws Exception {
        move(B, OptionalLong.empty(), OptionalLong.of(T - 10 * MIN));
        move(A, OptionalLong.empty(), OptionalLong.of(T + 59_000));
        move(B, OptionalLong.empty(), OptionalLong.of(T + MIN));
        bucket.put(Keys.WAKER, "{}".getBytes()).get();
        bucket.put("wake/0000-stray", new byte[0]).get();
        assertThat(index.due(T, 100).get()).containsExactly(
                new WakeKeys.WakeEntry(T - 10 * MIN, B), new WakeKeys.WakeEntry(T, A));
        assertThat(index.due(T - 11 * MIN, 100).get()).isEmpty();
        assertThat(index.due(T + 10 * MIN, 100).get()).hasSize(3);
        assertThat(index.due(T + 10 * MIN, 2).get()).hasSize(2);
    }

    @Test
    void aScanTakesFreshEntriesFirstRetriesWithTheCapacityLeftAndSkipsRestingOnes() throws Exception {
        String c = "Alarm:" + "0c".repeat(32);
        String d = "Alarm:" + "0d".repeat(32);
        for (String s : List.of(A, B, c, d)) {
            move(s, OptionalLong.empty(), OptionalLong.of(T - 5 * MIN));
        }
        move(A, OptionalLong.of(T - 5 * MIN), OptionalLong.of(T - 6 * MIN)); // A sorts first
        java.util.Map<String, WakeIndex.Standing> standing = java.util.Map.of(
                WakeKeys.key(T - 6 * MIN, A), WakeIndex.Standing.RETRY, WakeKeys.key(T - 5 * MIN, B), WakeIndex.Standing.RESTING);
        WakeIndex.Due due = index.due(T, 2, k -> standing.getOrDefault(k, WakeIndex.Standing.FRESH)).get();
        assertThat(due.entries()).as("two fresh entries fill the pass; the retry waits")
                .containsExactly(new WakeKeys.WakeEntry(T - 5 * MIN, c), new WakeKeys.WakeEntry(T - 5 * MIN, d));
        assertThat(due.resting()).containsExactly(WakeKeys.key(T - 5 * MIN, B));
        assertThat(due.complete()).isTrue();
        WakeIndex.Due roomy = index.due(T, 3, k -> standing.getOrDefault(k, WakeIndex.Standing.FRESH)).get();
        assertThat(roomy.entries()).as("capacity left: the retry comes after the fresh ones")
                .containsExactly(new WakeKeys.WakeEntry(T - 5 * MIN, c), new WakeKeys.WakeEntry(T - 5 * MIN, d),
                        new WakeKeys.WakeEntry(T - 6 * MIN, A));
        assertThat(index.due(T, 1, k -> WakeIndex.Standing.FRESH).get().complete()).as("stopped at the limit").isFalse();
    }
}
