package dev.cellgate.store.s3;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.probe.StorageProbe;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test: the measurement behind {@link StorageProbe#DEFAULT_ROUNDS}. Runs many single
 * 16-way compare-and-swap rounds (the probe's round) against a server and prints how many had
 * more than one winner. Run with
 * {@code -Dtest=FilesystemRaceRateMeasurement -Dcellgate.measure=200} (number of rounds).
 */
@EnabledIfSystemProperty(named = "cellgate.measure", matches = "\\d+")
class FilesystemRaceRateMeasurement {

    @Test
    void measure() throws Exception {
        int rounds = Integer.getInteger("cellgate.measure");
        for (String endpoint : List.of(S3TestServers.filesystemEndpoint(), S3TestServers.azureEndpoint())) {
            try (BucketStore store = S3TestServers.open(endpoint, "measure-" + UUID.randomUUID())) {
                report(endpoint, store, rounds);
            }
        }
    }

    private static void report(String endpoint, BucketStore store, int rounds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(StorageProbe.RACERS);
        String key = "race";
        String version = store.putIfAbsent(key, b("start")).get().versionOrNull();
        int multi = 0;
        int[] histogram = new int[StorageProbe.RACERS + 1];
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            String expected = version;
            CountDownLatch ready = new CountDownLatch(StorageProbe.RACERS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<WriteOutcome>> out = new ArrayList<>();
            for (int i = 0; i < StorageProbe.RACERS; i++) {
                byte[] body = b(r + ":" + i);
                out.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return store.putIfVersion(key, body, expected).get(30, TimeUnit.SECONDS);
                }));
            }
            ready.await();
            go.countDown();
            int winners = 0;
            for (Future<WriteOutcome> f : out) {
                if (f.get().written()) {
                    winners++;
                }
            }
            histogram[winners]++;
            if (winners > 1) {
                multi++;
            }
            version = store.get(key).get().orElseThrow().version();
        }
        pool.shutdownNow();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("MEASURE %s: %d of %d rounds had several winners (%.1f%%); winners histogram %s; %d ms/round%n",
                endpoint, multi, rounds, 100.0 * multi / rounds, java.util.Arrays.toString(histogram), ms / rounds);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
