package dev.cellgate.sim;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Runs seeds with the fleet's logging silenced (a run logs thousands of events), on a few threads:
 * each seed is a self-contained single-threaded world, so running several at once changes nothing
 * in any of them.
 */
final class SimRunner {
    private SimRunner() {
    }

    /** Summary of a batch. {@code failure} is the failing run with the lowest seed, or null. */
    record Batch(long seeds, long nanos, long events, long acks, long takeovers, long restarts, long wakeActivations,
                 long alarmsFired, long casRejected, Simulation.Result failure) {
        double seedsPerSecond() {
            return seeds * 1e9 / Math.max(1, nanos);
        }
    }

    static Simulation.Result one(long seed, Variant variant, boolean tracing) {
        return quietly(() -> new Simulation(seed, variant, tracing).run());
    }

    /**
     * Seeds {@code first, first+1, ...} until {@code maxSeeds} ran, {@code deadlineNanos} passed, or
     * one failed (the other threads then stop at their current seed).
     */
    static Batch batch(long first, long maxSeeds, long deadlineNanos, Variant variant) {
        return batch(first, maxSeeds, deadlineNanos, variant, Integer.getInteger("sim.threads", 2));
    }

    static Batch batch(long first, long maxSeeds, long deadlineNanos, Variant variant, int threads) {
        return batch(first, maxSeeds, deadlineNanos, variant, threads, sim -> { });
    }

    /** As above, with {@code setup} applied to each simulation before it runs. */
    static Batch batch(long first, long maxSeeds, long deadlineNanos, Variant variant, int threads,
                       java.util.function.Consumer<Simulation> setup) {
        return quietly(() -> {
            long t0 = System.nanoTime();
            AtomicLong next = new AtomicLong(first);
            AtomicLong ran = new AtomicLong();
            long[][] sums = new long[threads][7];
            AtomicReference<Simulation.Result> failed = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                long[] sum = sums[i];
                Thread t = new Thread(() -> {
                    while (failed.get() == null && System.nanoTime() < deadlineNanos) {
                        long seed = next.getAndIncrement();
                        if (seed >= first + maxSeeds) {
                            return;
                        }
                        Simulation sim = new Simulation(seed, variant, false);
                        setup.accept(sim);
                        Simulation.Result r = sim.run();
                        ran.incrementAndGet();
                        sum[0] += r.events();
                        sum[1] += r.acks();
                        sum[2] += r.takeovers();
                        sum[3] += r.restarts();
                        sum[4] += r.wakeActivations();
                        sum[5] += r.alarmsFired();
                        sum[6] += r.casRejected();
                        if (r.failure() != null) {
                            failed.accumulateAndGet(r, (a, b) -> a == null || b.seed() < a.seed() ? b : a);
                        }
                    }
                }, "sim-" + i);
                t.start();
                workers.add(t);
            }
            for (Thread t : workers) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            long[] total = new long[7];
            for (long[] s : sums) {
                for (int k = 0; k < 7; k++) {
                    total[k] += s[k];
                }
            }
            return new Batch(ran.get(), System.nanoTime() - t0, total[0], total[1], total[2], total[3], total[4], total[5],
                    total[6], failed.get());
        });
    }

    private static <T> T quietly(Supplier<T> run) {
        Logger fleet = (Logger) LoggerFactory.getLogger("dev.cellgate");
        Level before = fleet.getLevel();
        fleet.setLevel(Level.OFF);
        try {
            return run.get();
        } finally {
            fleet.setLevel(before);
        }
    }
}
