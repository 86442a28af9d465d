package dev.cellgate.core.cell.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.KvEntry;
import dev.cellgate.core.spi.js.KvListOptions;
import dev.cellgate.core.spi.js.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteCellStorageTest {
    @TempDir
    Path dir;
    SqliteCellStorage db;

    @BeforeEach
    void open() {
        db = new SqliteCellStorage(dir.resolve("cell.sqlite"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesOfATurnCommitTogetherAndReadsSeeThem() {
        db.sql("CREATE TABLE c (id INTEGER PRIMARY KEY, v INTEGER)", null);
        var ins = db.sql("INSERT INTO c VALUES (?, ?)", new Object[] {1L, 10.0});
        assertThat(ins.rowsWritten()).isEqualTo(1);
        assertThat(db.dirty()).isTrue();
        var upd = db.sql("UPDATE c SET v = v + 1 WHERE id = 1", null);
        assertThat(upd.rowsWritten()).isEqualTo(1);
        assertThat(db.sql("UPDATE c SET v = 0 WHERE id = 99", null).rowsWritten()).isZero();
        assertThat(db.endTurn()).isTrue();
        assertThat(db.dirty()).isFalse();
        var r = db.sql("SELECT v, typeof(v) AS t FROM c", null);
        assertThat(r.columnNames()).containsExactly("v", "t");
        assertThat(r.rows()).hasSize(1);
        assertThat(r.rows().get(0)).containsExactly(11L, "integer");
        assertThat(db.endTurn()).as("a read-only turn commits nothing").isFalse();
    }

    @Test
    void aWrongNumberOfBindingsIsRefusedWithWorkerdsText() {
        db.sql("CREATE TABLE c (a, b)", null);
        for (Object[] b : new Object[][] {{}, {1L}, {1L, 2L, 3L}}) {
            assertThatThrownBy(() -> db.sql("INSERT INTO c VALUES (?, ?)", b)).as(b.length + " bindings")
                    .isInstanceOf(dev.cellgate.core.spi.js.StorageException.class)
                    .hasMessage("Wrong number of parameter bindings for SQL query.");
        }
        assertThat(db.sql("SELECT count(*) FROM c", null).rows().get(0)[0]).isEqualTo(0L);
        assertThat(db.sql("INSERT INTO c VALUES (?, ?)", new Object[] {1L, 2L}).rowsWritten()).isEqualTo(1);
    }

    @Test
    void abortedTurnLeavesNothing() {
        db.sql("CREATE TABLE c (v)", null);
        db.endTurn();
        db.sql("INSERT INTO c VALUES (1)", null);
        db.abortTurn();
        assertThat(db.sql("SELECT count(*) FROM c", null).rows().get(0)[0]).isEqualTo(0L);
    }

    @Test
    void nestedTransactionsRollBackAlone() {
        db.sql("CREATE TABLE c (v)", null);
        db.sql("INSERT INTO c VALUES (1)", null);
        db.beginNested();
        db.sql("INSERT INTO c VALUES (2)", null);
        db.rollbackNested();
        db.beginNested();
        db.sql("INSERT INTO c VALUES (3)", null);
        db.commitNested();
        db.endTurn();
        assertThat(db.sql("SELECT group_concat(v) FROM c", null).rows().get(0)[0]).isEqualTo("1,3");
        assertThatThrownBy(db::commitNested).isInstanceOf(StorageException.class);
    }

    @Test
    void platformTablesCreatedInARolledBackTransactionAreCreatedAgain() {
        // The first alarm and the first key are written inside a transaction that is rolled back:
        // the tables they created are gone, and the next use must not trust a cached "it exists".
        db.beginNested();
        db.setAlarm(1_000);
        db.kvPut(List.of("k"), List.of(b("v")));
        db.rollbackNested();
        assertThat(db.storedAlarm()).isEmpty();
        assertThat(db.kvGet(List.of("k")).get(0)).isNull();
        db.endTurn();

        db.setAlarm(2_000);
        db.kvPut(List.of("k"), List.of(b("w")));
        db.abortTurn();
        assertThat(db.storedAlarm()).isEmpty();
        db.setAlarm(3_000);
        db.endTurn();
        assertThat(db.storedAlarm()).hasValue(3_000);
    }

    @Test
    void sqlErrorsAreClearAndRefusalsNameTheReason() {
        assertThatThrownBy(() -> db.sql("SELECT * FROM missing", null)).isInstanceOf(StorageException.class)
                .hasMessageContaining("no such table: missing");
        assertThatThrownBy(() -> db.sql("BEGIN", null)).hasMessageContaining("transactionSync");
        assertThatThrownBy(() -> db.sql("SELECT ?", new Object[] {new Object()})).hasMessageContaining("cannot bind");
        assertThatThrownBy(() -> db.sql("SELECT 1", new Object[101])).hasMessageContaining("too many SQL variables");
    }

    @Test
    void kvRoundTripsAndListsInKeyOrderWithEveryOption() {
        List<String> keys = List.of("b", "a", "ab", "abc", "b2", "c", "é", "z");
        db.kvPut(keys, keys.stream().map(SqliteCellStorageTest::b).toList());
        db.endTurn();
        assertThat(db.kvGet(List.of("a", "nope", "é"))).satisfiesExactly(
                v -> assertThat(v).isEqualTo(b("a")), v -> assertThat(v).isNull(), v -> assertThat(v).isEqualTo(b("é")));
        assertThat(keysOf(db.kvList(KvListOptions.all()))).containsExactly("a", "ab", "abc", "b", "b2", "c", "z", "é");
        assertThat(keysOf(db.kvList(new KvListOptions("ab", null, "b2", null, false, 0)))).containsExactly("ab", "abc", "b");
        assertThat(keysOf(db.kvList(new KvListOptions(null, "ab", null, null, false, 2)))).containsExactly("abc", "b");
        assertThat(keysOf(db.kvList(new KvListOptions(null, null, null, "ab", false, 0)))).containsExactly("ab", "abc");
        assertThat(keysOf(db.kvList(new KvListOptions(null, null, null, "b", true, 0)))).containsExactly("b2", "b");
        assertThat(keysOf(db.kvList(new KvListOptions(null, null, null, null, true, 3)))).containsExactly("é", "z", "c");
        assertThat(db.kvDelete(List.of("a", "nope", "b"))).isEqualTo(2);
        db.kvDeleteAll();
        assertThat(db.kvList(KvListOptions.all())).isEmpty();
        assertThatThrownBy(() -> db.kvGet(List.of("x".repeat(2049)))).hasMessageContaining("longer than 2048");
    }

    @Test
    void kvTableIsHiddenFromSql() {
        db.kvPut(List.of("k"), List.of(b("v")));
        assertThatThrownBy(() -> db.sql("SELECT * FROM _cf_KV", null)).hasMessageContaining("reserved");
    }

    @Test
    void alarmIsHiddenWhileItsHandlerRunsUnlessReset() {
        assertThat(db.getAlarm()).isEmpty();
        db.setAlarm(1234);
        db.endTurn();
        assertThat(db.getAlarm()).hasValue(1234);
        db.alarmStarted();
        assertThat(db.getAlarm()).isEmpty();
        assertThat(db.storedAlarm()).hasValue(1234);
        assertThat(db.alarmFinished()).isTrue();
        db.alarmStarted();
        db.setAlarm(5678);
        assertThat(db.alarmFinished()).as("re-set during the handler").isFalse();
        assertThat(db.getAlarm()).hasValue(5678);
    }

    @Test
    void prefixBoundIsTheNextCodePoint() {
        assertThat(PrefixBound.upperBound("ab")).isEqualTo("ac");
        assertThat(PrefixBound.upperBound("a\uD7FF")).isEqualTo("a\uE000");
        assertThat(PrefixBound.upperBound(new String(Character.toChars(0x10FFFF)))).isNull();
    }

    private static List<String> keysOf(List<KvEntry> entries) {
        return entries.stream().map(KvEntry::key).toList();
    }
}
