package dev.cellgate.core.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race checks have teeth: the file store with its stripe lock removed (check, then rename,
 * with nothing in between) loses updates, and the counter check sees it.
 */
class FileBucketStoreNegativeControlTest {
    @TempDir
    Path dir;

    @Test
    void counterWithoutLockingLosesUpdates() throws Exception {
        FileBucketStore broken = new FileBucketStore("file://" + dir, dir, false, false);
        int lostInSomeAttempt = 0;
        for (int attempt = 0; attempt < 5 && lostInSomeAttempt == 0; attempt++) {
            String key = "counter-" + attempt;
            broken.putIfAbsent(key, "0".getBytes(StandardCharsets.UTF_8)).get();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<Integer>> wins = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                wins.add(pool.submit(() -> {
                    int mine = 0;
                    for (int i = 0; i < 40; i++) {
                        StoredObject cur = broken.get(key).get().orElseThrow();
                        int n = Integer.parseInt(new String(cur.bytes(), StandardCharsets.UTF_8));
                        WriteOutcome o = broken.putIfVersion(key, Integer.toString(n + 1).getBytes(StandardCharsets.UTF_8), cur.version()).get();
                        if (o.written()) {
                            mine++;
                        }
                    }
                    return mine;
                }));
            }
            int acknowledged = 0;
            for (Future<Integer> f : wins) {
                acknowledged += f.get(2, TimeUnit.MINUTES);
            }
            pool.shutdown();
            int stored = Integer.parseInt(new String(broken.get(key).get().orElseThrow().bytes(), StandardCharsets.UTF_8));
            lostInSomeAttempt = acknowledged - stored;
        }
        broken.close();
        assertThat(lostInSomeAttempt).as("acknowledged increments minus stored value, without locking").isPositive();
    }
}
