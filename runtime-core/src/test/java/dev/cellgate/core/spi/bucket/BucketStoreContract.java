package dev.cellgate.core.spi.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link BucketStore} passes: the file store, S3 on a real server, the GCS
 * emulator. Ownership of cells rests on the atomicity checked by the race tests here.
 *
 * <p>Subclasses open a store whose keys live under a fresh prefix for each test.
 */
public abstract class BucketStoreContract {
    protected static final Duration WAIT = Duration.ofSeconds(60);
    protected static final int RACERS = 20;
    protected static final int ROUNDS = 50;

    /** Opens a store rooted at {@code prefix} of the shared test bucket. */
    protected abstract BucketStore openStore(String prefix) throws Exception;

    protected BucketStore store;
    protected String prefix;
    private final List<BucketStore> opened = new ArrayList<>();

    @BeforeEach
    void openFresh() throws Exception {
        prefix = "contract-" + UUID.randomUUID();
        store = open(prefix);
    }

    @AfterEach
    void closeAll() {
        opened.forEach(BucketStore::close);
    }

    protected BucketStore open(String p) throws Exception {
        BucketStore s = openStore(p);
        opened.add(s);
        return s;
    }

    protected static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    protected static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    protected static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ the six basic cases

    @Test
    void versionAloneIsWhatTheWriteAndTheReadReport() throws Exception {
        assertThat(await(store.version("v/none"))).isEmpty();
        WriteOutcome first = await(store.putIfAbsent("v/one", b("first")));
        assertThat(await(store.version("v/one"))).contains(first.versionOrNull());
        WriteOutcome second = await(store.putIfVersion("v/one", b("second"), first.versionOrNull()));
        assertThat(second).isInstanceOf(WriteOutcome.Written.class);
        assertThat(await(store.version("v/one"))).contains(second.versionOrNull())
                .contains(await(store.get("v/one")).orElseThrow().version());
        await(store.delete("v/one"));
        assertThat(await(store.version("v/one"))).isEmpty();
    }

    /** {@link BucketStore#info}: the size get() would give; a time, when the store keeps one, by a clock near this one. */
    @Test
    void infoGivesTheSizeAndATimeNearTheWrite() throws Exception {
        long before = System.currentTimeMillis();
        await(store.put("info/a", new byte[321]));
        long after = System.currentTimeMillis();
        ObjectInfo info = await(store.info("info/a")).orElseThrow();
        assertThat(info.size()).isEqualTo(321);
        if (info.timeKnown()) {
            // S3 keeps whole seconds; servers on loopback share this host's clock
            assertThat(info.lastModifiedMs()).isBetween(before - 2_000, after + 2_000);
        }
        assertThat(await(store.info("info/missing"))).isEmpty();
    }

    @Test
    void createThenRead() throws Exception {
        WriteOutcome w = await(store.putIfAbsent("a/one.json", b("{\"n\":1}")));
        assertThat(w).isInstanceOf(WriteOutcome.Written.class);
        Optional<StoredObject> got = await(store.get("a/one.json"));
        assertThat(got).isPresent();
        assertThat(s(got.get().bytes())).isEqualTo("{\"n\":1}");
        assertThat(got.get().version()).isEqualTo(w.versionOrNull());
    }

    @Test
    void createAgainIsRejectedAndKeepsTheFirst() throws Exception {
        assertThat(await(store.putIfAbsent("k", b("first"))).written()).isTrue();
        WriteOutcome again = await(store.putIfAbsent("k", b("second")));
        assertThat(again).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(s(await(store.get("k")).orElseThrow().bytes())).isEqualTo("first");
    }

    @Test
    void casWithCurrentVersionWrites() throws Exception {
        String v1 = await(store.putIfAbsent("k", b("1"))).versionOrNull();
        WriteOutcome w = await(store.putIfVersion("k", b("2"), v1));
        assertThat(w).isInstanceOf(WriteOutcome.Written.class);
        assertThat(w.versionOrNull()).isNotEqualTo(v1);
        StoredObject now = await(store.get("k")).orElseThrow();
        assertThat(s(now.bytes())).isEqualTo("2");
        assertThat(now.version()).isEqualTo(w.versionOrNull());
    }

    @Test
    void casWithStaleVersionIsRejected() throws Exception {
        String v1 = await(store.putIfAbsent("k", b("1"))).versionOrNull();
        assertThat(await(store.putIfVersion("k", b("2"), v1)).written()).isTrue();
        WriteOutcome stale = await(store.putIfVersion("k", b("3"), v1));
        assertThat(stale).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(s(await(store.get("k")).orElseThrow().bytes())).isEqualTo("2");
        assertThat(await(store.putIfVersion("missing", b("x"), v1))).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(await(store.get("missing"))).isEmpty();
    }

    @Test
    void readAfterWrite() throws Exception {
        assertThat(await(store.get("r"))).isEmpty();
        for (int i = 0; i < 5; i++) {
            WriteOutcome w = await(store.put("r", b("v" + i)));
            assertThat(w.written()).isTrue();
            StoredObject o = await(store.get("r")).orElseThrow();
            assertThat(s(o.bytes())).isEqualTo("v" + i);
            assertThat(o.version()).isEqualTo(w.versionOrNull());
        }
        byte[] big = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(big);
        assertThat(await(store.put("big", big)).written()).isTrue();
        assertThat(await(store.get("big")).orElseThrow().bytes()).isEqualTo(big);
        assertThat(await(store.put("empty", new byte[0])).written()).isTrue();
        assertThat(await(store.get("empty")).orElseThrow().bytes()).isEmpty();
    }

    @Test
    void listPaginatesInKeyOrderAndDeleteRemoves() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            keys.add(String.format("dir/sub%d/k%02d", i % 3, i));
        }
        keys.add("dir2/other");
        keys.add("dirx");
        for (String k : keys) {
            assertThat(await(store.put(k, b(k))).written()).isTrue();
        }
        List<String> listed = listAll(store, "dir/", 5);
        assertThat(listed).isEqualTo(keys.stream().filter(k -> k.startsWith("dir/")).sorted().toList());
        assertThat(listAll(store, "dir", 100)).hasSize(25);
        assertThat(listAll(store, "dir/sub1/", 2)).allMatch(k -> k.startsWith("dir/sub1/")).hasSize(8);
        assertThat(listAll(store, "nothing/", 10)).isEmpty();

        await(store.delete("dir/sub0/k00"));
        await(store.delete("dir/sub0/k00")); // deleting a missing object succeeds
        assertThat(await(store.get("dir/sub0/k00"))).isEmpty();
        assertThat(listAll(store, "dir/", 7)).hasSize(22).doesNotContain("dir/sub0/k00");
        assertThat(await(store.putIfAbsent("dir/sub0/k00", b("again"))).written()).isTrue();
    }

    @Test
    void prefixesIsolateStores() throws Exception {
        BucketStore other = open(prefix + "-other");
        assertThat(await(store.putIfAbsent("same/key", b("mine"))).written()).isTrue();
        assertThat(await(other.get("same/key"))).isEmpty();
        assertThat(await(other.putIfAbsent("same/key", b("theirs"))).written()).isTrue();
        assertThat(s(await(store.get("same/key")).orElseThrow().bytes())).isEqualTo("mine");
        assertThat(listAll(store, "", 100)).containsExactly("same/key");
        assertThat(listAll(other, "", 100)).containsExactly("same/key");
        await(other.delete("same/key"));
        assertThat(await(store.get("same/key"))).isPresent();
    }

    // ------------------------------------------------------------------ the store's clock (SPEC §20)

    /** Whether this store tells the time it took a write ({@link WriteOutcome.Written#serverTimeMs()}). */
    protected boolean reportsServerTime() {
        return false;
    }

    @Test
    void aWriteTellsTheStoresClockWhenTheStoreReportsIt() throws Exception {
        long before = System.currentTimeMillis();
        WriteOutcome o = await(store.putIfAbsent("clock/a", b("x")));
        long after = System.currentTimeMillis();
        assertThat(o.written()).isTrue();
        var server = ((WriteOutcome.Written) o).serverTimeMs();
        if (!reportsServerTime()) {
            return;
        }
        assertThat(server).as("the store's clock on the write's answer").isPresent();
        // The test and the store share this host's clock; an HTTP Date loses up to a second.
        assertThat(server.getAsLong()).isBetween(before - 1_000, after + 1_000);
        assertThat(((WriteOutcome.Written) await(store.putIfVersion("clock/a", b("y"), o.versionOrNull()))).serverTimeMs())
                .as("a compare-and-swap tells it too").isPresent();
    }

    // ------------------------------------------------------------------ races

    /**
     * Issue 30 item 10: three nodes starting at once failed with the fleet key "vanished after a create
     * race". Twenty starting nodes (five store clients) must all end with the one key that was written.
     */
    @Test
    void twentyNodesStartingAtOnceAgreeOnOneFleetKey() throws Exception {
        List<BucketStore> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(open(prefix));
        }
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            List<Future<dev.cellgate.core.records.PeerAuthRecord>> keys = race(pool,
                    i -> await(dev.cellgate.core.fleet.FleetKey.ensure(clients.get(i % clients.size()), System::currentTimeMillis)));
            List<dev.cellgate.core.records.PeerAuthRecord> got = new ArrayList<>();
            for (Future<dev.cellgate.core.records.PeerAuthRecord> k : keys) {
                got.add(k.get());
            }
            var stored = dev.cellgate.core.records.PeerAuthRecord.decode(
                    await(store.get(dev.cellgate.core.logic.Keys.PEER_AUTH)).orElseThrow().bytes());
            assertThat(got).as("the key each of %d starting nodes ended with", RACERS).containsOnly(stored);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twentyWayCreateHasExactlyOneWinnerEachRound() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String key = "race/create-" + round;
                List<Future<WriteOutcome>> results = race(pool, i -> await(store.putIfAbsent(key, b("racer-" + i))));
                int winners = 0;
                String winner = null;
                for (int i = 0; i < RACERS; i++) {
                    WriteOutcome o = results.get(i).get();
                    assertThat(o).as("round %d racer %d", round, i).isNotInstanceOf(WriteOutcome.Ambiguous.class);
                    if (o.written()) {
                        winners++;
                        winner = "racer-" + i;
                    }
                }
                assertThat(winners).as("winners of create round %d", round).isEqualTo(1);
                assertThat(s(await(store.get(key)).orElseThrow().bytes())).isEqualTo(winner);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twentyWayCasHasExactlyOneWinnerEachRound() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            String key = "race/cas";
            String version = await(store.putIfAbsent(key, b("start"))).versionOrNull();
            for (int round = 0; round < ROUNDS; round++) {
                String expected = version;
                int r = round;
                List<Future<WriteOutcome>> results = race(pool, i -> await(store.putIfVersion(key, b(r + ":" + i), expected)));
                int winners = 0;
                String winnerVersion = null;
                String winnerBody = null;
                for (int i = 0; i < RACERS; i++) {
                    WriteOutcome o = results.get(i).get();
                    assertThat(o).as("round %d racer %d", round, i).isNotInstanceOf(WriteOutcome.Ambiguous.class);
                    if (o.written()) {
                        winners++;
                        winnerVersion = o.versionOrNull();
                        winnerBody = r + ":" + i;
                    }
                }
                assertThat(winners).as("winners of CAS round %d", round).isEqualTo(1);
                StoredObject now = await(store.get(key)).orElseThrow();
                assertThat(s(now.bytes())).isEqualTo(winnerBody);
                assertThat(now.version()).isEqualTo(winnerVersion);
                version = winnerVersion;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void eightWorkerCasCounterReachesExactlyItsTotal() throws Exception {
        int workers = 8;
        int perWorker = counterIncrementsPerWorker();
        String key = "counter";
        assertThat(await(store.putIfAbsent(key, b("0"))).written()).isTrue();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                done.add(pool.submit(() -> {
                    int mine = 0;
                    while (mine < perWorker) {
                        StoredObject cur = await(store.get(key)).orElseThrow();
                        int n = Integer.parseInt(s(cur.bytes()));
                        WriteOutcome o = await(store.putIfVersion(key, b(Integer.toString(n + 1)), cur.version()));
                        if (o instanceof WriteOutcome.Ambiguous a) {
                            throw new AssertionError("ambiguous outcome in counter: " + a.reason(), a.cause());
                        }
                        if (o.written()) {
                            mine++;
                        }
                    }
                    return mine;
                }));
            }
            int sum = 0;
            for (Future<Integer> f : done) {
                sum += f.get(5, TimeUnit.MINUTES);
            }
            assertThat(sum).isEqualTo(workers * perWorker);
            assertThat(s(await(store.get(key)).orElseThrow().bytes())).isEqualTo(Integer.toString(workers * perWorker));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Increments per counter worker; a slow networked store may lower it. */
    protected int counterIncrementsPerWorker() {
        return 25;
    }

    // ------------------------------------------------------------------ helpers

    @FunctionalInterface
    protected interface Racer<T> {
        T run(int index) throws Exception;
    }

    /** Starts every racer at the same instant (a latch), returns their futures in racer order. */
    protected static <T> List<Future<T>> race(ExecutorService pool, Racer<T> racer) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(RACERS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> out = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            int idx = i;
            out.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return racer.run(idx);
            }));
        }
        ready.await();
        go.countDown();
        return out;
    }

    public static List<String> listAll(BucketStore s, String prefix, int pageSize) throws Exception {
        List<String> all = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ListPage page = await(s.list(prefix, cursor, pageSize));
            assertThat(page.keys().size()).isLessThanOrEqualTo(pageSize);
            all.addAll(page.keys());
            cursor = page.nextCursor();
            assertThat(++pages).as("listing did not terminate").isLessThan(10_000);
        } while (cursor != null);
        return all;
    }
}
