package dev.cellgate.core.sim;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Runs seeds one after another with the fleet's logging silenced (a run logs thousands of events). */
final class SimRunner {
    private SimRunner() {
    }

    /** Summary of a batch. {@code failure} is the first failing run, or null. */
    record Batch(long seeds, long nanos, long events, long acks, long takeovers, long restarts, Simulation.Result failure) {
        double seedsPerSecond() {
            return seeds * 1e9 / Math.max(1, nanos);
        }
    }

    static Simulation.Result one(long seed, Variant variant, boolean tracing) {
        return quietly(() -> new Simulation(seed, variant, tracing).run());
    }

    /** Seeds {@code first, first+1, ...} until {@code maxSeeds} ran, {@code deadlineNanos} passed, or one failed. */
    static Batch batch(long first, long maxSeeds, long deadlineNanos, Variant variant) {
        return quietly(() -> {
            long t0 = System.nanoTime();
            long n = 0;
            long events = 0;
            long acks = 0;
            long takeovers = 0;
            long restarts = 0;
            while (n < maxSeeds && System.nanoTime() < deadlineNanos) {
                Simulation.Result r = new Simulation(first + n, variant, false).run();
                n++;
                events += r.events();
                acks += r.acks();
                takeovers += r.takeovers();
                restarts += r.restarts();
                if (r.failure() != null) {
                    return new Batch(n, System.nanoTime() - t0, events, acks, takeovers, restarts, r);
                }
            }
            return new Batch(n, System.nanoTime() - t0, events, acks, takeovers, restarts, null);
        });
    }

    private static <T> T quietly(java.util.function.Supplier<T> run) {
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
