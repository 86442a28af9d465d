// Restore time and per-write latency of the `wal` replicator against a real bucket.
// Not a test: numbers for bench/RESULTS.md. Run through ./run.sh (it builds and sets the class path).

import dev.cellgate.core.fleet.Acquisition;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
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

public class RestoreBench {
    static final Random RND = new Random(1);

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = parse(args);
        String url = opt.get("bucket");
        if (url == null) {
            System.err.println("usage: run.sh --bucket URL [--plugins DIR] [--sizes 1,16,100] [--writes 300] [--rounds 3] [--repeat 3]"
                    + " [--option NAME=VALUE]...   (S3_ENDPOINT and AWS_REGION are taken from the environment too)");
            System.exit(2);
        }
        Map<String, String> storeOpts = new HashMap<>();
        for (String k : List.of("S3_ENDPOINT", "AWS_REGION")) {
            if (System.getenv(k) != null) {
                storeOpts.put(k, System.getenv(k));
            }
        }
        for (String o : opt.getOrDefault("option", "").split(";")) {
            if (o.contains("=")) {
                storeOpts.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        PluginHost plugins = opt.containsKey("plugins") ? new PluginHost(Path.of(opt.get("plugins"))) : null;
        if (plugins != null) {
            plugins.start();
        }
        Path work = Files.createTempDirectory("restore-bench");
        ExecutorService io = Executors.newFixedThreadPool(4);
        try (BucketStore store = new BucketStores(plugins).open(url, new StoreOptions(storeOpts))) {
            byte[] id = new byte[4];
            new java.security.SecureRandom().nextBytes(id); // fresh cells on every run, also in a reused bucket
            String run = HexFormat.of().formatHex(id);
            System.out.printf("bucket %s, run %s, work dir %s%n", store.url(), run, work);
            latency(store, io, work, run, Integer.parseInt(opt.getOrDefault("writes", "300")),
                    Integer.parseInt(opt.getOrDefault("rounds", "3")));
            for (String s : opt.getOrDefault("sizes", "1,16,100").split(",")) {
                restore(store, io, work, run, Integer.parseInt(s.trim()), Integer.parseInt(opt.getOrDefault("repeat", "3")));
            }
        } finally {
            io.shutdownNow();
            if (plugins != null) {
                plugins.close();
            }
            try (var files = Files.walk(work)) { // local databases only: the bucket keeps what the run wrote
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Sequential acknowledged writes (each waits for its ack) vs sequential raw PUTs of a page-sized
     * object, in rounds that interleave the two: the first round also warms the JIT (the store's
     * client included), so compare the later ones.
     */
    static void latency(BucketStore store, ExecutorService io, Path work, String run, int writes, int rounds) throws Exception {
        Cell cell = Cell.create(store, io, work, "Bench:" + run + "-lat", 64L << 20, true);
        cell.tx("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)", null).get(30, TimeUnit.SECONDS);
        Cell free = Cell.create(store, io, work, "Bench:" + run + "-lat-free", 64L << 20, false);
        free.tx("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)", null).get(30, TimeUnit.SECONDS);
        byte[] body = randomBytes(4096);
        System.out.printf("latency (ms, %d sequential ops per line, first 10%% of each dropped)%n", writes);
        for (int round = 1; round <= rounds; round++) {
            double[] put = new double[writes];
            double[] get = new double[writes];
            double[] head = new double[writes];
            for (int i = 0; i < writes; i++) {
                String key = "bench/" + run + "/raw-" + round + "-" + i;
                long t0 = System.nanoTime();
                store.putIfAbsent(key, body).get(30, TimeUnit.SECONDS);
                put[i] = ms(t0);
                t0 = System.nanoTime();
                store.get(key).get(30, TimeUnit.SECONDS);
                get[i] = ms(t0);
                t0 = System.nanoTime();
                store.version(key).get(30, TimeUnit.SECONDS);
                head[i] = ms(t0);
            }
            double[] w = acked(cell, writes);
            double[] wf = acked(free, writes);
            System.out.printf(" round %d%n", round);
            System.out.printf("  raw PUT 4 KiB                     p50 %7.2f  p99 %7.2f%n", pct(put, 50), pct(put, 99));
            System.out.printf("  raw GET 4 KiB                     p50 %7.2f  p99 %7.2f%n", pct(get, 50), pct(get, 99));
            System.out.printf("  raw version (HEAD) 4 KiB          p50 %7.2f  p99 %7.2f%n", pct(head, 50), pct(head, 99));
            System.out.printf("  acked write, the node's check     p50 %7.2f  p99 %7.2f%n", pct(w, 50), pct(w, 99));
            System.out.printf("  acked write, check without I/O    p50 %7.2f  p99 %7.2f%n", pct(wf, 50), pct(wf, 99));
        }
        cell.close();
        free.close();
    }

    static double[] acked(Cell cell, int writes) throws Exception {
        double[] w = new double[writes];
        for (int i = 0; i < writes; i++) {
            long t0 = System.nanoTime();
            cell.tx("INSERT OR REPLACE INTO kv VALUES (" + (i % 50) + ", ?)", randomBytes(100)).get(30, TimeUnit.SECONDS);
            w[i] = ms(t0);
        }
        return w;
    }

    /** Fills a cell to `mb` MiB, lets maintenance snapshot it, then times restores into fresh files. */
    static void restore(BucketStore store, ExecutorService io, Path work, String run, int mb, int repeat) throws Exception {
        String scope = "Bench:" + run + "-" + mb + "mb";
        Cell cell = Cell.create(store, io, work, scope, Math.max(1, mb / 2) << 20, false);
        cell.tx("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)", null).get(30, TimeUnit.SECONDS);
        long fillStart = System.nanoTime();
        int rows = mb * 16; // 64 KiB rows
        for (int i = 0; i < rows; i += 16) {
            List<CompletableFuture<Void>> acks = new ArrayList<>();
            for (int j = i; j < Math.min(rows, i + 16); j++) {
                acks.add(cell.tx("INSERT INTO kv VALUES (" + j + ", ?)", randomBytes(64 * 1024)));
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        }
        cell.tx("UPDATE kv SET v = ? WHERE k % 97 = 0", randomBytes(64 * 1024)).get(60, TimeUnit.SECONDS);
        cell.idle();
        double fill = ms(fillStart);
        cell.close();
        WalReplicator r = new WalReplicator(new ReplicatorConfig(store, io, 64L << 20), WalPolicy.defaults());
        double[] t = new double[repeat];
        RestoreResult last = null;
        for (int i = 0; i < repeat; i++) {
            Path into = work.resolve(scope.replace(':', '_') + "-restore-" + i + ".db");
            long t0 = System.nanoTime();
            last = r.restore(scope, Long.MAX_VALUE, into).get(300, TimeUnit.SECONDS);
            t[i] = ms(t0);
            Files.deleteIfExists(into);
            Files.deleteIfExists(into.resolveSibling(into.getFileName() + ".replica.json"));
        }
        Arrays.sort(t);
        System.out.printf("restore %4d MiB cell: db %6.1f MiB, %3d objects, %7.1f MiB read, best %8.1f ms, median %8.1f ms"
                        + "  (fill took %.0f ms)%n", mb, last.databaseBytes() / 1048576.0, last.objectsRead(),
                last.bytesRead() / 1048576.0, t[0], t[t.length / 2], fill);
    }

    /** The node's own acquire of the cell and its per-flush confirmation (OwnershipStore). */
    static OwnershipCheck nodesCheck(BucketStore store, String scope) throws Exception {
        OwnershipStore owner = new OwnershipStore(store, new Self("bench", "s"), System::currentTimeMillis);
        Acquisition.Acquired a = (Acquisition.Acquired) owner.acquire(scope).get(30, TimeUnit.SECONDS);
        return () -> owner.confirm(scope, a.epoch(), a.version());
    }

    /** A bench cell: one executor thread, a JDBC connection with the host pragmas, the replica attached at epoch 1. */
    static final class Cell {
        final ExecutorService exec = Executors.newSingleThreadExecutor();
        Connection conn;
        CellReplica replica;

        static Cell create(BucketStore store, ExecutorService io, Path work, String scope, long snapshotEvery, boolean ownJsonCheck)
                throws Exception {
            Cell c = new Cell();
            Path db = work.resolve(scope.replace(':', '_') + ".db");
            OwnershipCheck check = ownJsonCheck ? nodesCheck(store, scope) : () -> CompletableFuture.completedFuture(true);
            WalReplicator r = new WalReplicator(new ReplicatorConfig(store, io, snapshotEvery), WalPolicy.defaults());
            c.exec.submit(() -> {
                c.conn = DriverManager.getConnection("jdbc:sqlite:" + db);
                try (Statement s = c.conn.createStatement()) {
                    s.execute("PRAGMA journal_mode=WAL");
                    s.execute("PRAGMA wal_autocheckpoint=0");
                    s.execute("PRAGMA synchronous=NORMAL");
                }
                c.replica = r.attach(scope, 1, db, c.exec, check, WalCheckpoint.through(c.conn));
                return null;
            }).get(60, TimeUnit.SECONDS);
            return c;
        }

        CompletableFuture<Void> tx(String sql, byte[] blob) {
            return CompletableFuture.supplyAsync(() -> {
                try (PreparedStatement p = conn.prepareStatement(sql)) {
                    if (blob != null) {
                        p.setBytes(1, blob);
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
            for (int i = 0; i < 3; i++) { // a snapshot queued by the last segments may queue GC after it
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

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RND.nextBytes(b);
        return b;
    }

    static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    static double pct(double[] xs, int p) {
        double[] s = Arrays.copyOfRange(xs, xs.length / 10, xs.length);
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i]);
            }
            String k = args[i].substring(2);
            m.merge(k, args[i + 1], (a, b) -> a + ";" + b);
        }
        return m;
    }
}
