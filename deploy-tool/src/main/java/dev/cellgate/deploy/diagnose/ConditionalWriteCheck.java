package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The conditional-write checks a fleet relies on, on one scratch key {@code probe/<who>-<nonce>}:
 * create-only succeeds once and is then rejected; compare-and-swap succeeds on the current version
 * and is rejected on a replaced one; {@value #RACERS} compare-and-swaps racing on one version have
 * exactly one winner, for {@value #ROUNDS} rounds; the key is deleted at the end, also after a failure.
 * Stops at the first misbehaviour (later steps build on earlier versions).
 */
public final class ConditionalWriteCheck implements StorageCheck {
    static final int RACERS = 16;
    static final int ROUNDS = 4;
    static final long TIMEOUT_S = 30;

    @Override
    public Result run(BucketStore store, String who) {
        byte[] n = new byte[8];
        new SecureRandom().nextBytes(n);
        return new Run(store, Keys.PROBE + who + "-" + HexFormat.of().formatHex(n)).all();
    }

    private static final class Run {
        private final BucketStore store;
        private final String key;
        private final List<Step> steps = new ArrayList<>();
        private String version;
        private String replaced;
        private byte[] body;

        Run(BucketStore store, String key) {
            this.store = store;
            this.key = key;
        }

        Result all() {
            boolean ok = step("create", this::create);
            ok = ok && step("reject-create", this::rejectCreate);
            ok = ok && step("cas-update", this::cas);
            ok = ok && step("reject-stale-cas", this::rejectStale);
            ok = ok && step("race", this::race);
            step("cleanup", this::cleanup);
            String failed = steps.stream().filter(s -> !s.ok()).map(s -> s.name() + ": " + s.detail()).findFirst().orElse(null);
            return new Result(failed == null ? "conditional writes are atomic on " + store.url() + " (" + steps.size() + " steps)"
                    : "storage probe FAILED on " + store.url() + " at " + failed, steps);
        }

        String create() throws Exception {
            body = bytes("create");
            WriteOutcome o = await(store.putIfAbsent(key, body));
            if (!(o instanceof WriteOutcome.Written w)) {
                throw new Bad("create-only write of a fresh key answered " + o);
            }
            version = w.version();
            expect(body, version, "after the create");
            return "created " + key;
        }

        String rejectCreate() throws Exception {
            WriteOutcome o = await(store.putIfAbsent(key, bytes("create-again")));
            if (!(o instanceof WriteOutcome.Rejected)) {
                throw new Bad("a second create-only write answered " + o + " (want a rejection)");
            }
            expect(body, version, "after the rejected create");
            return "second create rejected";
        }

        String cas() throws Exception {
            byte[] b = bytes("cas");
            WriteOutcome o = await(store.putIfVersion(key, b, version));
            if (!(o instanceof WriteOutcome.Written w) || w.version().equals(version)) {
                throw new Bad("compare-and-swap on the current version answered " + o);
            }
            replaced = version;
            version = w.version();
            body = b;
            expect(body, version, "after the compare-and-swap");
            return "version changed";
        }

        String rejectStale() throws Exception {
            WriteOutcome o = await(store.putIfVersion(key, bytes("stale"), replaced));
            if (!(o instanceof WriteOutcome.Rejected)) {
                throw new Bad("compare-and-swap on a replaced version answered " + o + " (want a rejection)");
            }
            expect(body, version, "after the stale compare-and-swap");
            return "stale version rejected";
        }

        String race() throws Exception {
            // Own threads released together: the common pool may have one thread on a small machine, which is no race.
            ExecutorService pool = Executors.newFixedThreadPool(RACERS, r -> {
                Thread t = new Thread(r, "storage-check-racer");
                t.setDaemon(true);
                return t;
            });
            try {
                for (int round = 1; round <= ROUNDS; round++) {
                    raceRound(pool, round);
                }
            } finally {
                pool.shutdownNow();
            }
            return RACERS + " racers x " + ROUNDS + " rounds: one winner each";
        }

        private void raceRound(ExecutorService pool, int round) throws Exception {
            List<byte[]> bodies = new ArrayList<>();
            List<Future<WriteOutcome>> racers = new ArrayList<>();
            String expected = version;
            CountDownLatch go = new CountDownLatch(1);
            for (int i = 0; i < RACERS; i++) {
                byte[] b = bytes("race-" + round + "-" + i);
                bodies.add(b);
                racers.add(pool.submit(() -> {
                    go.await();
                    return store.putIfVersion(key, b, expected).get(TIMEOUT_S, TimeUnit.SECONDS);
                }));
            }
            go.countDown();
            int winner = -1;
            int wins = 0;
            for (int i = 0; i < RACERS; i++) {
                WriteOutcome o = racers.get(i).get(TIMEOUT_S, TimeUnit.SECONDS);
                if (o instanceof WriteOutcome.Ambiguous a) {
                    throw new Bad("round " + round + ": a racer got an ambiguous answer (" + a.reason() + "): atomicity cannot be shown");
                }
                if (o instanceof WriteOutcome.Written w) {
                    wins++;
                    winner = i;
                    version = w.version();
                }
            }
            if (wins != 1) {
                throw new Bad("round " + round + ": " + wins + " of " + RACERS
                        + " compare-and-swaps on one version succeeded (want exactly 1): conditional writes are not atomic");
            }
            body = bodies.get(winner);
            expect(body, version, "after race round " + round);
        }

        String cleanup() throws Exception {
            await(store.delete(key));
            if (await(store.get(key)).isPresent()) {
                throw new Bad(key + " is still there after its delete");
            }
            return "deleted " + key;
        }

        private void expect(byte[] want, String wantVersion, String when) throws Exception {
            Optional<StoredObject> got = await(store.get(key));
            if (got.isEmpty() || !Arrays.equals(got.get().bytes(), want) || !got.get().version().equals(wantVersion)) {
                throw new Bad("the object is not what the last successful write left " + when
                        + (got.isEmpty() ? " (missing)" : " (a losing write landed?)"));
            }
        }

        private boolean step(String name, Body b) {
            long t0 = System.nanoTime();
            String detail;
            boolean ok;
            try {
                detail = b.run();
                ok = true;
            } catch (Bad e) {
                detail = e.getMessage();
                ok = false;
            } catch (Exception e) {
                Throwable c = e.getCause() != null ? e.getCause() : e;
                detail = "store error: " + c;
                ok = false;
            }
            steps.add(new Step(name, ok, detail, (System.nanoTime() - t0) / 1_000_000));
            return ok;
        }

        private byte[] bytes(String what) {
            return ("{\"probe\":\"deploy-tool\",\"write\":\"" + what + "\"}").getBytes(StandardCharsets.UTF_8);
        }

        private static <T> T await(CompletableFuture<T> f) throws Exception {
            return f.get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    @FunctionalInterface
    private interface Body {
        String run() throws Exception;
    }

    private static final class Bad extends Exception {
        Bad(String message) {
            super(message, null, false, false);
        }
    }
}
