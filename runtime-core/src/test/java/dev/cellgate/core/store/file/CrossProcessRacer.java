package dev.cellgate.core.store.file;

import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One racing process of {@link FileBucketStoreCrossProcessTest}. Waits for a start file so both
 * processes begin together, then:
 * <ul>
 *   <li>{@code create}: 10 threads each try to create every key {@code race/0..N-1}; prints {@code WIN <key>} per win;</li>
 *   <li>{@code counter}: 4 threads increment {@code counter} by CAS K times each; prints {@code ACKED <n>}.</li>
 * </ul>
 */
public final class CrossProcessRacer {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String mode = args[1];
        int n = Integer.parseInt(args[2]);
        Path go = root.resolveSibling("go");
        FileBucketStore store = new FileBucketStore("file://" + root, root, false);
        System.out.println("READY");
        System.out.flush();
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(go)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no go signal");
            }
            Thread.onSpinWait();
        }
        ExecutorService pool = Executors.newFixedThreadPool(10);
        List<Future<List<String>>> results = new ArrayList<>();
        int threads = mode.equals("create") ? 10 : 4;
        for (int t = 0; t < threads; t++) {
            results.add(pool.submit(() -> mode.equals("create") ? create(store, n) : count(store, n)));
        }
        for (Future<List<String>> f : results) {
            for (String line : f.get(5, TimeUnit.MINUTES)) {
                System.out.println(line);
            }
        }
        pool.shutdown();
        store.close();
        System.out.println("DONE");
    }

    private static List<String> create(FileBucketStore store, int keys) throws Exception {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            WriteOutcome o = store.putIfAbsent("race/" + k, ("pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)).get();
            if (o instanceof WriteOutcome.Ambiguous a) {
                out.add("AMBIGUOUS " + a.reason());
            } else if (o.written()) {
                out.add("WIN race/" + k);
            }
        }
        return out;
    }

    private static List<String> count(FileBucketStore store, int increments) throws Exception {
        int mine = 0;
        while (mine < increments) {
            StoredObject cur = store.get("counter").get().orElseThrow();
            int v = Integer.parseInt(new String(cur.bytes(), StandardCharsets.UTF_8));
            WriteOutcome o = store.putIfVersion("counter", Integer.toString(v + 1).getBytes(StandardCharsets.UTF_8), cur.version()).get();
            if (o instanceof WriteOutcome.Ambiguous a) {
                return List.of("AMBIGUOUS " + a.reason());
            }
            if (o.written()) {
                mine++;
            }
        }
        return List.of("ACKED " + mine);
    }
}
