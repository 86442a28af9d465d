package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.replication.RestoreResult;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Shipping and restoring real SQLite databases: what was committed comes back byte for byte. */
class RoundTripTest extends WithFixture {
    @Test
    void manyTransactionsLargeOnesAndSchemaChangesComeBackIdentical() throws Exception {
        WalReplicator r = fx.replicator();
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);
        Random rnd = new Random(42);
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int n = i;
            acks.add(a.tx(c -> {
                try (PreparedStatement p = c.prepareStatement("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)")) {
                    p.setString(1, "k" + (n % 120));
                    byte[] v = new byte[n % 50 == 0 ? 3_000_000 : 10 + rnd.nextInt(3000)]; // some multi-MB transactions
                    rnd.nextBytes(v);
                    p.setBytes(2, v);
                    p.executeUpdate();
                }
            }));
            if (i == 100) {
                acks.add(a.sql("ALTER TABLE kv ADD COLUMN note TEXT", "CREATE INDEX kv_note ON kv(note)",
                        "UPDATE kv SET note = 'n' || k"));
            }
            if (i == 200) {
                acks.add(a.sql("CREATE TABLE other (id INTEGER PRIMARY KEY, s TEXT)", "INSERT INTO other (s) VALUES ('x'), ('y')",
                        "DROP INDEX kv_note", "DELETE FROM kv WHERE k LIKE 'k1%'"));
            }
        }
        a.autocommit("VACUUM").get(60, TimeUnit.SECONDS); // rewrites and shrinks every page: truncation in the WAL
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        List<String> live = a.dump();

        long next = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        Path restored = fx.db("node-b");
        RestoreResult res = r.restore(Fixture.SCOPE, next, restored).get(60, TimeUnit.SECONDS);
        assertThat(res.epoch()).isEqualTo(1);
        assertThat(res.objectsRead()).isGreaterThan(0);
        assertThat(CellHarness.dumpFile(restored)).isEqualTo(live);
        assertThat(Fixture.strayFiles(restored)).isEmpty();
    }

    @Test
    void aCellWithNoDataRestoresToNothing() throws Exception {
        WalReplicator r = fx.replicator();
        Path db = fx.db("node-a");
        java.nio.file.Files.createDirectories(db.getParent());
        java.nio.file.Files.write(db.resolveSibling("cell.db-wal"), new byte[100]); // leftovers of an older life
        java.nio.file.Files.write(db.resolveSibling("cell.db.replica.json"), new byte[10]);
        RestoreResult res = r.restore(Fixture.SCOPE, 1, db).get(30, TimeUnit.SECONDS);
        assertThat(res.hasData()).isFalse();
        assertThat(db).doesNotExist();
        assertThat(db.resolveSibling("cell.db-wal")).doesNotExist();
        assertThat(db.resolveSibling("cell.db.replica.json")).doesNotExist();

        // attached, pinned, never written: still no data
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.flush().get(30, TimeUnit.SECONDS);
        long next = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        RestoreResult again = r.restore(Fixture.SCOPE, next, fx.db("node-b")).get(30, TimeUnit.SECONDS);
        assertThat(again.hasData()).isFalse();
        assertThat(fx.db("node-b")).doesNotExist();
    }
}
