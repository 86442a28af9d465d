package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import dev.cellgate.core.spi.replication.CellReplica;
import org.junit.jupiter.api.Test;

/**
 * RPO=0: a writer records a value as acknowledged only when {@code committed()} completes; the
 * node then "crashes" (nothing more reaches the bucket, uploads in flight are dropped) and loses
 * its disk. A new activation restores: every acknowledged value must be there. Several cycles in
 * one lineage, then the same check against the broken early-ack replica, which it must catch.
 */
class CrashTest extends WithFixture {
    @Test
    void everyAcknowledgedValueSurvivesCrashesThatLoseTheDisk() throws Exception {
        List<Integer> lost = runCycles(6, UnaryOperator.identity(), new Random(1));
        assertThat(lost).as("acknowledged values missing after restore").isEmpty();
    }

    @Test
    void theCrashCheckCatchesAReplicaThatAcknowledgesBeforeTheUpload() throws Exception {
        List<Integer> lost = runCycles(2, EarlyAckReplica::new, new Random(1));
        assertThat(lost).as("the broken replica must lose acknowledged values").isNotEmpty();
    }

    /** Returns the acknowledged values the final restore does not contain. */
    private List<Integer> runCycles(int cycles, UnaryOperator<CellReplica> variant, Random rnd) throws Exception {
        Set<Integer> acked = new TreeSet<>();
        int next = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            FaultyStore store = new FaultyStore(fx.bucket).delay(15); // each upload takes a while: crashes hit in-flight ones
            WalReplicator r = fx.replicator(store, Fixture.policy(), 64L << 20);
            String node = "node-" + cycle;
            CellHarness h = fx.activate(r, store, node);
            if (cycle == 0) {
                h.sql("CREATE TABLE t (v INTEGER PRIMARY KEY)").get(30, TimeUnit.SECONDS);
            }
            h.wrapReplica(variant);
            ConcurrentLinkedQueue<Integer> ackedNow = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<Void>> inFlight = new ArrayList<>();
            int crashAfter = 20 + rnd.nextInt(40);
            while (ackedNow.size() < crashAfter) {
                int v = next++;
                inFlight.add(h.sql("INSERT INTO t VALUES (" + v + ")").thenRun(() -> ackedNow.add(v)));
                if (v % 4 == 0) {
                    Thread.sleep(1 + rnd.nextInt(4)); // commits arrive in bursts: some share uploads
                }
                inFlight.removeIf(CompletableFuture::isDone);
            }
            store.crash(); // the node dies: nothing more reaches the bucket
            acked.addAll(ackedNow);
            for (CompletableFuture<Void> f : inFlight) {
                f.handle((x, e) -> null).get(30, TimeUnit.SECONDS); // in-flight commits fail: never acknowledged
            }
            acked.addAll(ackedNow); // (values acked before the crash completed their callbacks late)
            h.close();
            CellHarness.deleteLocal(h.db); // and the node's disk is gone
        }
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "reader");
        Path db = fx.db("reader");
        fx.replicator().restore(Fixture.SCOPE, epoch, db).get(60, TimeUnit.SECONDS);
        Set<Integer> present = new TreeSet<>();
        for (String row : CellHarness.dumpFile(db)) {
            if (row.startsWith("t:")) {
                present.add(Integer.parseInt(row.substring(2, row.length() - 1)));
            }
        }
        return acked.stream().filter(v -> !present.contains(v)).toList();
    }
}
