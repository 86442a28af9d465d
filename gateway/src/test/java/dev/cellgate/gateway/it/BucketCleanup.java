package dev.cellgate.gateway.it;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Deletes what a test fleet left on the S3 server once its test is over. Every test writes under a
 * prefix of its own and reads nothing back later, but the objects stay, and the emulator's cost
 * grows with them: every 10 minutes Azurite's extent GC lists all its blobs (pages of 5,000, a scan
 * and a sort each) and removes every garbage extent from arrays that hold all of them, on its one
 * event loop, answering nothing meanwhile. Over one qualify run that sweep grew from about 1 s of CPU
 * to about 30 s and stalled the server for 33, 34, 95 and then 113 s (.ci/s3-watch.sh). With only
 * what was written since the last sweep to go through, it stays short.
 */
final class BucketCleanup {
    static final int PARALLEL = 16;

    private BucketCleanup() {
    }

    /** Deletes every object of {@code store} (a fleet's prefix); returns how many. */
    static int deleteAll(BucketStore store) throws Exception {
        int deleted = 0;
        String cursor = null;
        do {
            ListPage page = store.list("", cursor, 1000).get(120, TimeUnit.SECONDS);
            List<String> keys = page.keys();
            for (int i = 0; i < keys.size(); i += PARALLEL) {
                List<CompletableFuture<Void>> batch = new ArrayList<>();
                for (String k : keys.subList(i, Math.min(keys.size(), i + PARALLEL))) {
                    batch.add(store.delete(k));
                }
                CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            }
            deleted += keys.size();
            cursor = page.nextCursor();
        } while (cursor != null);
        return deleted;
    }
}
