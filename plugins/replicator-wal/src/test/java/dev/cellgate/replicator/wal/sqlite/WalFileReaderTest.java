package dev.cellgate.replicator.wal.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading committed transactions from a real SQLite WAL file. */
class WalFileReaderTest {
    @TempDir
    Path tmp;
    Path db;
    Path wal;
    Connection c;

    @BeforeEach
    void open() throws Exception {
        db = tmp.resolve("t.db");
        wal = tmp.resolve("t.db-wal");
        c = DriverManager.getConnection("jdbc:sqlite:" + db);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA wal_autocheckpoint=0");
        }
    }

    @AfterEach
    void close() throws Exception {
        c.close();
    }

    private void exec(String sql) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void readsEachCommittedTransactionOnceWithItsPagesAndSize() throws Exception {
        WalFileReader r = new WalFileReader(wal);
        exec("CREATE TABLE t (v BLOB)");
        exec("INSERT INTO t VALUES (zeroblob(20000))");
        List<WalTxn> first = r.readCommitted();
        assertThat(first).hasSize(2);
        assertThat(first.get(1).commitPages()).isGreaterThan(first.get(0).commitPages());
        assertThat(r.readCommitted()).isEmpty();
        exec("INSERT INTO t VALUES (x'01')");
        assertThat(r.readCommitted()).hasSize(1);

        // The model built from the frames equals the database file after a checkpoint.
        DbImage model = DbImage.scan(db);
        WalFileReader all = new WalFileReader(wal);
        for (WalTxn t : all.readCommitted()) {
            model.apply(t);
        }
        exec("PRAGMA wal_checkpoint(TRUNCATE)");
        DbImage file = DbImage.scan(db);
        assertThat(model.checksum()).isEqualTo(file.checksum());
        assertThat(model.pages()).isEqualTo(file.pages());
    }

    @Test
    void aCorruptFrameEndsTheLogAtThePreviousCommit() throws Exception {
        exec("CREATE TABLE t (v TEXT)");
        exec("INSERT INTO t VALUES ('a')");
        exec("INSERT INTO t VALUES ('b')");
        long size = Files.size(wal);
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.seek(size - 100); // inside the last frame's page
            int b = f.read();
            f.seek(size - 100);
            f.write(b ^ 0x40);
        }
        assertThat(new WalFileReader(wal).readCommitted()).hasSize(2);
    }

    @Test
    void aRestartNobodyAnnouncedIsAnErrorAndAnAnnouncedOneIsFollowed() throws Exception {
        WalFileReader r = new WalFileReader(wal);
        exec("CREATE TABLE t (v TEXT)");
        assertThat(r.readCommitted()).hasSize(1);
        exec("PRAGMA wal_checkpoint(TRUNCATE)"); // someone else checkpoints behind the reader's back
        exec("INSERT INTO t VALUES ('lost?')");
        assertThatThrownBy(r::readCommitted).isInstanceOf(WalException.class).hasMessageContaining("frames may be lost");

        WalFileReader told = new WalFileReader(wal);
        assertThat(told.readCommitted()).hasSize(1);
        exec("PRAGMA wal_checkpoint(TRUNCATE)");
        told.checkpointed();
        exec("INSERT INTO t VALUES ('next')");
        assertThat(told.readCommitted()).hasSize(1);
    }
}
