package dev.cellgate.core.store.probe;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves, on the live store, that conditional writes are atomic before a node trusts the bucket
 * with ownership: create, a rejected second create, a compare-and-swap, a rejected stale
 * compare-and-swap, then {@value #RACERS} racing compare-and-swaps on one version that must have
 * exactly one winner, for {@link #DEFAULT_ROUNDS} rounds. All of it under one scratch key
 * {@code probe/<node>-<nonce>}, deleted at the end.
 *
 * <p>Why several race rounds: a store whose If-Match is a read-then-write emulation (S3Proxy's
 * filesystem back end) lets several racers win only when their requests overlap inside its
 * window, so a single round can come out clean by luck. docs/storage.md has the measurement that
 * fixed the round count.
 *
 * <p>A flaky connection must not stop a node: a race round in which some answer was lost (an
 * ambiguous write) proves nothing either way, so it is run again, as many times per probe as there
 * are rounds to win ({@link RaceVerdict} judges each round); only rounds with clear answers count.
 * An unclear sequential step retries the whole probe with a fresh key ({@link #ATTEMPTS} in all).
 * A wrong answer is final either way.
 */
public final class StorageProbe {
    private static final Logger LOG = LoggerFactory.getLogger(StorageProbe.class);
    public static final int RACERS = 16;
    public static final int DEFAULT_ROUNDS = 8;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BucketStore store;
    private final String nodeId;
    private final String key;
    private final int rounds;
    private final Duration timeout;
    private final List<ProbeStep> steps = new ArrayList<>();
    /** The first failed step failed for want of a clear answer, not because of a wrong one. */
    private boolean inconclusive;
    private String version;
    private String replacedVersion;
    private byte[] body;
    /** Bodies of racers whose answers were lost in unclear rounds; one of them may land later. */
    private final List<byte[]> lost = new ArrayList<>();
    private byte[] lateBody;

    private StorageProbe(BucketStore store, String nodeId, int rounds, Duration timeout) {
        if (rounds < 1) {
            throw new IllegalArgumentException("probe race rounds must be positive, got " + rounds);
        }
        this.store = store;
        this.nodeId = nodeId;
        this.key = "probe/" + nodeId + "-" + HexFormat.of().formatHex(nonce());
        this.rounds = rounds;
        this.timeout = timeout;
    }

    /** Runs the probe with the default race rounds; blocks until done (at most a few timeouts). */
    public static ProbeResult run(BucketStore store, String nodeId) {
        return run(store, nodeId, DEFAULT_ROUNDS, DEFAULT_TIMEOUT);
    }

    /** Whole probes tried when each one ends without a clear answer (ambiguous writes, timeouts, errors). */
    static final int ATTEMPTS = 3;

    public static ProbeResult run(BucketStore store, String nodeId, int rounds, Duration timeout) {
        ProbeResult r;
        for (int attempt = 1; ; attempt++) {
            StorageProbe probe = new StorageProbe(store, nodeId, rounds, timeout);
            r = probe.runAll();
            // A wrong answer is final; an unclear one (an S3 server's 500, a timeout) is tried
            // again from scratch with a fresh key, a few times, so one hiccup does not stop a node.
            if (r.ok() || !probe.inconclusive || attempt >= ATTEMPTS) {
                break;
            }
            LOG.atWarn().setMessage("storage.probe_inconclusive").addKeyValue("bucket", r.storeUrl()).addKeyValue("attempt", attempt)
                    .addKeyValue("summary", r.summary()).log();
            try {
                Thread.sleep(500L * attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        var log = r.ok() ? LOG.atInfo() : LOG.atError();
        log.setMessage("storage.probe").addKeyValue("bucket", r.storeUrl()).addKeyValue("ok", r.ok())
                .addKeyValue("failed_step", r.failedStep().map(ProbeStep::name).orElse(""))
                .addKeyValue("ms", r.steps().stream().mapToLong(ProbeStep::ms).sum()).log();
        return r;
    }

    /**
     * Opens {@code url} with the node's providers and options, probes it and closes it (the
     * operator endpoint). A malformed URL or an unknown scheme throws {@link IllegalArgumentException}.
     */
    public static ProbeResult openAndRun(BucketStores stores, String url, StoreOptions options, String nodeId) {
        try (BucketStore s = stores.open(url, options)) {
            return run(s, nodeId);
        }
    }

    private ProbeResult runAll() {
        // Each step builds on the one before (versions, expected bytes): stop at the first failure.
        boolean ok = step("create", this::create);
        ok = ok && step("reject-create", this::rejectCreate);
        ok = ok && step("cas-update", this::casUpdate);
        ok = ok && step("reject-stale-cas", this::rejectStaleCas);
        ok = ok && step("race", this::race);
        step("cleanup", this::cleanup); // also after a failure: leave no scratch object behind
        return new ProbeResult(store.url(), key, steps);
    }

    // ------------------------------------------------------------------ the steps

    private String create() throws Exception {
        byte[] b = bytes("create");
        WriteOutcome o = await(store.putIfAbsent(key, b));
        if (!(o instanceof WriteOutcome.Written w)) {
            throw Misbehaved.answered("create-only write of a fresh key answered " + o, o);
        }
        expectStored(b, w.version(), "after the create");
        version = w.version();
        body = b;
        return "created " + key + " (version " + version + ")";
    }

    private String rejectCreate() throws Exception {
        WriteOutcome o = await(store.putIfAbsent(key, bytes("create-again")));
        if (!(o instanceof WriteOutcome.Rejected)) {
            throw Misbehaved.answered("a second create-only write of an existing key answered " + o + " (want a rejection)", o);
        }
        expectStored(body, version, "after the rejected create");
        return "second create rejected, object unchanged";
    }

    private String casUpdate() throws Exception {
        byte[] b = bytes("cas");
        WriteOutcome o = await(store.putIfVersion(key, b, version));
        if (!(o instanceof WriteOutcome.Written w)) {
            throw Misbehaved.answered("compare-and-swap with the current version answered " + o, o);
        }
        if (w.version().equals(version)) {
            throw new Misbehaved("compare-and-swap kept the old version " + version + ": versions do not change on write");
        }
        expectStored(b, w.version(), "after the compare-and-swap");
        replacedVersion = version;
        version = w.version();
        body = b;
        return "version " + replacedVersion + " -> " + version;
    }

    private String rejectStaleCas() throws Exception {
        String stale = replacedVersion;
        WriteOutcome o = await(store.putIfVersion(key, bytes("stale"), stale));
        if (!(o instanceof WriteOutcome.Rejected)) {
            throw Misbehaved.answered("compare-and-swap with the replaced version " + stale + " answered " + o + " (want a rejection)", o);
        }
        expectStored(body, version, "after the stale compare-and-swap");
        return "stale version rejected, object unchanged";
    }


    private String race() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS, r -> {
            Thread t = new Thread(r, "storage-probe-racer");
            t.setDaemon(true);
            return t;
        });
        int unclear = 0;
        try {
            for (int counted = 0; counted < rounds; ) {
                String where = "round " + (counted + 1) + " of " + rounds + ": ";
                RaceVerdict v = raceRound(pool, counted + 1);
                switch (v.kind()) {
                    case COUNTS -> counted++;
                    case WRONG -> throw new Misbehaved(where + v.detail());
                    case UNCLEAR -> {
                        // A lost answer proves nothing either way: the round runs again, a bounded number of times.
                        if (++unclear > rounds) {
                            throw new Misbehaved(where + v.detail() + ", and " + rounds
                                    + " race rounds before it had a lost answer too: atomicity cannot be shown", true);
                        }
                        LOG.atWarn().setMessage("storage.probe_round_unclear").addKeyValue("bucket", store.url())
                                .addKeyValue("round", counted + 1).addKeyValue("detail", v.detail()).log();
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return RACERS + " racing compare-and-swaps x " + rounds + " rounds: exactly one winner each round"
                + (unclear == 0 ? "" : " (" + unclear + " round" + (unclear == 1 ? "" : "s") + " with a lost answer run again)");
    }

    /** One round: the racers' answers, then what the object holds; adopts the stored state unless the store is wrong. */
    private RaceVerdict raceRound(ExecutorService pool, int round) throws Exception {
        String expected = version;
        CountDownLatch ready = new CountDownLatch(RACERS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<WriteOutcome>> results = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            byte[] b = bytes("race-" + round + "-" + i + "-" + HexFormat.of().formatHex(nonce()));
            bodies.add(b);
            results.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return await(store.putIfVersion(key, b, expected));
            }));
        }
        ready.await();
        go.countDown();
        List<WriteOutcome> answers = new ArrayList<>();
        for (Future<WriteOutcome> f : results) {
            answers.add(unwrap(f));
        }
        RaceVerdict early = RaceVerdict.fromAnswers(answers);
        if (early != null) {
            return early;
        }
        RaceVerdict.Stored stored = stored(await(store.get(key)), bodies, expected);
        RaceVerdict v = RaceVerdict.judge(answers, stored);
        if (v.kind() == RaceVerdict.Kind.WRONG) {
            return v;
        }
        if (stored instanceof RaceVerdict.Stored.Racer r) {
            version = r.version();
            body = bodies.get(r.index());
        } else if (stored instanceof RaceVerdict.Stored.Late l) {
            version = l.version();
            body = lateBody;
        }
        if (v.kind() == RaceVerdict.Kind.UNCLEAR) {
            for (int i = 0; i < RACERS; i++) {
                if (answers.get(i) instanceof WriteOutcome.Ambiguous) {
                    lost.add(bodies.get(i)); // may still land while a later round runs
                }
            }
        }
        return v;
    }

    private RaceVerdict.Stored stored(Optional<StoredObject> got, List<byte[]> bodies, String before) {
        if (got.isEmpty()) {
            return new RaceVerdict.Stored.Other("nothing (the object is missing)");
        }
        for (int i = 0; i < bodies.size(); i++) {
            if (Arrays.equals(got.get().bytes(), bodies.get(i))) {
                return new RaceVerdict.Stored.Racer(i, got.get().version());
            }
        }
        if (Arrays.equals(got.get().bytes(), body) && got.get().version().equals(before)) {
            return new RaceVerdict.Stored.Before();
        }
        for (byte[] l : lost) {
            if (Arrays.equals(got.get().bytes(), l)) {
                lateBody = l;
                return new RaceVerdict.Stored.Late(got.get().version());
            }
        }
        return new RaceVerdict.Stored.Other("'" + text(got.get().bytes()) + "' (version " + got.get().version() + ")");
    }

    private String cleanup() throws Exception {
        await(store.delete(key));
        Optional<StoredObject> left = await(store.get(key));
        if (left.isPresent()) {
            throw new Misbehaved("the probe object " + key + " is still readable after its delete");
        }
        return "deleted " + key;
    }

    // ------------------------------------------------------------------ helpers

    /** Runs one step and records it; false stops the probe. */
    private boolean step(String name, StepBody b) {
        long t0 = System.nanoTime();
        boolean ok;
        boolean unclear = false;
        String detail;
        try {
            detail = b.run();
            ok = true;
        } catch (Misbehaved e) {
            detail = e.getMessage();
            ok = false;
            unclear = e.inconclusive;
        } catch (TimeoutException e) {
            detail = "no answer within " + timeout.toSeconds() + " s";
            ok = false;
            unclear = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            detail = "interrupted";
            ok = false;
        } catch (Exception e) {
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            detail = "store error: " + c;
            ok = false;
            unclear = true;
        }
        if (!ok && steps.stream().allMatch(ProbeStep::ok)) {
            inconclusive = unclear; // only the first failure decides (cleanup runs after it)
        }
        steps.add(new ProbeStep(name, ok, detail, (System.nanoTime() - t0) / 1_000_000));
        return ok;
    }

    private void expectStored(byte[] wantBody, String wantVersion, String when) throws Exception {
        Optional<StoredObject> got = await(store.get(key));
        if (got.isEmpty()) {
            throw new Misbehaved("object missing " + when);
        }
        if (!Arrays.equals(got.get().bytes(), wantBody)) {
            throw new Misbehaved("stored bytes are '" + text(got.get().bytes()) + "' " + when + ", want '" + text(wantBody)
                    + "' (a write that lost its race landed anyway)");
        }
        if (!got.get().version().equals(wantVersion)) {
            throw new Misbehaved("stored version is " + got.get().version() + " " + when + ", want " + wantVersion);
        }
    }

    private <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private WriteOutcome unwrap(Future<WriteOutcome> f) throws Exception {
        try {
            return f.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception c) {
                throw c;
            }
            throw e;
        }
    }

    private byte[] bytes(String what) {
        return ("{\"probe\":\"" + nodeId + "\",\"write\":\"" + what + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] nonce() {
        byte[] n = new byte[8];
        RANDOM.nextBytes(n);
        return n;
    }

    @FunctionalInterface
    private interface StepBody {
        String run() throws Exception;
    }

    /** The store answered, but not as an atomic conditional store must. */
    private static final class Misbehaved extends Exception {
        /** The store did not answer wrongly, it did not answer clearly (ambiguous): worth another try. */
        final boolean inconclusive;

        Misbehaved(String message) {
            this(message, false);
        }

        Misbehaved(String message, boolean inconclusive) {
            super(message, null, false, false);
            this.inconclusive = inconclusive;
        }

        /** A write that answered {@code o} where another answer was due. */
        static Misbehaved answered(String message, WriteOutcome o) {
            return new Misbehaved(message, o instanceof WriteOutcome.Ambiguous);
        }
    }
}
