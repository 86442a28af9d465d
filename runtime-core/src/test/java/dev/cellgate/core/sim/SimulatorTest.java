package dev.cellgate.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The seeded deterministic simulation of the REAL fleet protocol code (issue 12, part 1).
 * <ul>
 * <li>{@code -Dsim.seeds=N} seeds to cover (default 10,000), starting at {@code -Dsim.firstSeed}
 * (default 0);</li>
 * <li>{@code -Dsim.seconds=S} time box (default {@value #DEFAULT_SECONDS}, which covers the default
 * seeds with room to spare on a loaded 2-core box: see the report for the measured rate);</li>
 * <li>{@code -Dsim.threads=T} seeds run at once (default 2; each seed is single-threaded and
 * deterministic whatever the thread count);</li>
 * <li>{@code -Dsim.seed=N} replays one seed exactly and prints its trace ({@code -Dsim.variant=V} for a
 * broken variant).</li>
 * </ul>
 */
class SimulatorTest {
    static final long DEFAULT_SECONDS = 170;

    @Test
    void theProtocolKeepsEveryPropertyUnderFaults() {
        Long replay = Long.getLong("sim.seed");
        if (replay != null) {
            Simulation.Result r = SimRunner.one(replay, Variant.valueOf(System.getProperty("sim.variant", "CORRECT")), true);
            r.trace().forEach(System.out::println);
            System.out.printf("seed %d: %s after %d events, %d acks, %d takeovers, %d restarts%n", replay,
                    r.failure() == null ? "all properties held" : "FAILED at +" + r.failedAtMs() + " ms: " + r.failure().getMessage(),
                    r.events(), r.acks(), r.takeovers(), r.restarts());
            assertThat(r.failure()).as("seed " + replay).isNull();
            return;
        }
        long seeds = Long.getLong("sim.seeds", 10_000);
        long first = Long.getLong("sim.firstSeed", 0);
        long seconds = Long.getLong("sim.seconds", DEFAULT_SECONDS);
        SimRunner.Batch b = SimRunner.batch(first, seeds, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds), Variant.CORRECT);
        System.out.printf("simulator: %d seeds (from %d) in %.1f s = %.0f seeds/s on %d thread(s); %.0f events/seed; "
                        + "%d acknowledged calls, %d takeovers, %d rejected conditional writes, %d process restarts, "
                        + "%d alarms fired, %d cells activated by the waker%n", b.seeds(), first, b.nanos() / 1e9, b.seedsPerSecond(), Integer.getInteger("sim.threads", 2),
                (double) b.events() / Math.max(1, b.seeds()), b.acks(), b.takeovers(), b.casRejected(), b.restarts(), b.alarmsFired(),
                b.wakeActivations());
        if (b.failure() != null) {
            Simulation.Result f = b.failure();
            String msg = "SIMULATION FAILED seed=" + f.seed() + " at +" + f.failedAtMs() + " ms: " + f.failure().getMessage()
                    + "\n  replay exactly: mvn -pl runtime-core test -Dtest=SimulatorTest -Dsim.seed=" + f.seed();
            System.out.println(msg);
            throw new AssertionError(msg);
        }
        if (b.seeds() < seeds) {
            System.out.printf("WARNING: the %d s time box stopped the run after %d of %d seeds (slow or loaded machine)%n",
                    seconds, b.seeds(), seeds);
        }
    }
}
