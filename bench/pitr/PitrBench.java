// Point-in-time recovery of the `wal` replicator over a simulated month. Not a test: numbers for
// bench/RESULTS.md. Run through ./run.sh (it builds and sets the class path).

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.WalPolicy;
import dev.cellgate.replicator.wal.WalReplicator;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

public class PitrBench {
    static final long DAY = 86_400_000L;
    static final int ROW = 64 * 1024;
    static final Random RND = new Random(1);

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String url = opt.get("bucket");
        if (url == null) {
            System.err.println("usage: run.sh --bucket URL [--plugins DIR] [--mb 100] [--daily-mb 4] [--days 30] [--repeat 3]");
            System.exit(2);
        }
        int mb = Integer.parseInt(opt.getOrDefault("mb", "100"));
        int dailyMb = Integer.parseInt(opt.getOrDefault("daily-mb", "4"));
        int days = Integer.parseInt(opt.getOrDefault("days", "30"));
        int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
        Map<String, String> storeOpts = new HashMap<>();
        for (String k : List.of("S3_ENDPOINT", "AWS_REGION")) {
            if (System.getenv(k) != null) {
                storeOpts.put(k, System.getenv(k));
            }
        }
        PluginHost plugins = opt.containsKey("plugins") ? new PluginHost(Path.of(opt.get("plugins"))) : null;
        if (plugins != null) {
            plugins.start();
        }
        Path work = Files.createTempDirectory("pitr-bench");
        ExecutorService io = Executors.newFixedThreadPool(4);
        try (BucketStore store = new BucketStores(plugins).open(url, new StoreOptions(storeOpts))) {
            byte[] id = new byte[4];
            new java.security.SecureRandom().nextBytes(id);
            String run = HexFormat.of().formatHex(id);
            System.out.printf("bucket %s, run %s: %d MiB cell, %d MiB rewritten per day, %d days%n", store.url(), run, mb, dailyMb, days);
            Month off = month(store, io, work, "Pitr:" + run + "-off", mb, dailyMb, days, 0);
            Month on = month(store, io, work, "Pitr:" + run + "-on", mb, dailyMb, days, days * DAY);
            // W GB written per day, kept R days: the extra is about W x R; normalised, the overhead factor
            double gbPerDay = dailyMb / 1024.0;
            System.out.printf("bucket bytes kept: retention off %.1f MiB, %d-day retention %.1f MiB; extra per (GB written per day x day kept): %.3f GB%n",
                    off.bucketBytes / 1048576.0, days, on.bucketBytes / 1048576.0,
                    (on.bucketBytes - off.bucketBytes) / 1073741824.0 / (gbPerDay * days));
            WalReplicator r = on.replicator;
            for (int back : List.of(1, days - 1)) {
                Bookmark b = r.bookmarkForTime(on.scope, on.clock.get() - back * DAY).get(60, TimeUnit.SECONDS);
                double[] t = new double[repeat];
                RestoreResult last = null;
                for (int i = 0; i < repeat; i++) {
                    Path into = work.resolve("restore-" + back + "-" + i + ".db");
                    long t0 = System.nanoTime();
                    last = r.restoreTo(on.scope, Long.MAX_VALUE, into, b).get(600, TimeUnit.SECONDS);
                    t[i] = (System.nanoTime() - t0) / 1e6;
                    Files.deleteIfExists(into);
                    Files.deleteIfExists(into.resolveSibling(into.getFileName() + ".replica.json"));
                }
                Arrays.sort(t);
                System.out.printf("restore %2d day(s) back (%s): db %.1f MiB, %d objects, %.1f MiB read, best %.0f ms, median %.0f ms%n",
                        back, b.encode(), last.databaseBytes() / 1048576.0, last.objectsRead(), last.bytesRead() / 1048576.0, t[0], t[t.length / 2]);
            }
        } finally {
            io.shutdownNow();
            if (plugins != null) {
                plugins.close();
            }
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    record Month(String scope, WalReplicator replicator, AtomicLong clock, long bucketBytes) {
    }

    /** Fills a cell at day 0, rewrites {@code dailyMb} of it every simulated day, and measures the bucket. */
    static Month month(BucketStore store, ExecutorService io, Path work, String scope, int mb, int dailyMb, int days,
                       long retentionMs) throws Exception {
        // The fill happens a day before the window opens: what the window keeps is the month of daily writes.
        AtomicLong clock = new AtomicLong(System.currentTimeMillis() - (days + 1) * DAY);
        WalReplicator r = new WalReplicator(new ReplicatorConfig(store, io, Math.max(1, mb / 2) << 20, retentionMs, clock::get),
                WalPolicy.defaults());
        Cell cell = Cell.create(r, work, scope);
        cell.tx("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)", -1).get(30, TimeUnit.SECONDS);
        int rows = mb * 16;
        batch(cell, 0, rows);
        int perDay = dailyMb * 16;
        for (int d = 1; d <= days + 1; d++) {
            clock.set(clock.get() + DAY);
            batch(cell, -1, perDay);
            cell.idle();
        }
        cell.close();
        long bytes = 0;
        String prefix = "cells/" + scope + "/";
        String cursor = null;
        do {
            var page = store.list(prefix, cursor, 1000).get(60, TimeUnit.SECONDS);
            for (String k : page.keys()) {
                bytes += store.get(k).get(60, TimeUnit.SECONDS).map(o -> (long) o.bytes().length).orElse(0L);
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return new Month(scope, r, clock, bytes);
    }

    /** {@code n} 64 KiB rows: the keys from {@code first} on, or random existing keys when {@code first < 0}; 16 in flight. */
    static void batch(Cell cell, int first, int n) throws Exception {
        for (int i = 0; i < n; i += 16) {
            List<CompletableFuture<Void>> acks = new ArrayList<>();
            for (int j = i; j < Math.min(n, i + 16); j++) {
                int k = first >= 0 ? first + j : RND.nextInt(1600);
                acks.add(cell.tx("INSERT OR REPLACE INTO kv VALUES (" + k + ", ?)", k));
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
        }
    }

    static final class Cell {
        final ExecutorService exec = Executors.newSingleThreadExecutor();
        Connection conn;
        CellReplica replica;

        static Cell create(WalReplicator r, Path work, String scope) throws Exception {
            Cell c = new Cell();
            Path db = work.resolve(scope.replace(':', '_') + ".db");
            c.exec.submit(() -> {
                c.conn = DriverManager.getConnection("jdbc:sqlite:" + db);
                try (Statement s = c.conn.createStatement()) {
                    s.execute("PRAGMA journal_mode=WAL");
                    s.execute("PRAGMA wal_autocheckpoint=0");
                    s.execute("PRAGMA synchronous=NORMAL");
                }
                c.replica = r.attach(scope, 1, db, c.exec, () -> CompletableFuture.completedFuture(true), WalCheckpoint.through(c.conn));
                return null;
            }).get(60, TimeUnit.SECONDS);
            return c;
        }

        CompletableFuture<Void> tx(String sql, int blobKey) {
            return CompletableFuture.supplyAsync(() -> {
                try (PreparedStatement p = conn.prepareStatement(sql)) {
                    if (blobKey >= 0) {
                        byte[] b = new byte[ROW];
                        RND.nextBytes(b);
                        p.setBytes(1, b);
                    }
                    p.executeUpdate();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return replica.committed();
            }, exec).thenCompose(f -> f);
        }

        void idle() throws Exception {
            CompletableFuture.supplyAsync(() -> replica.flush(), exec).thenCompose(f -> f).get(300, TimeUnit.SECONDS);
            for (int i = 0; i < 3; i++) {
                ((WalCellReplica) replica).maintenanceIdle().get(300, TimeUnit.SECONDS);
            }
        }

        void close() throws Exception {
            exec.submit(() -> {
                replica.detach();
                conn.close();
                return null;
            }).get(60, TimeUnit.SECONDS);
            exec.shutdown();
        }
    }
}
