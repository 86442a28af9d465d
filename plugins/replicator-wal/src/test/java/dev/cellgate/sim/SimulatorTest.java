package dev.cellgate.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The seeded deterministic simulation of the REAL fleet protocol code (issue 12, part 1; issue 24).
 * <ul>
 * <li>{@code -Dsim.seeds=N} seeds to cover (default 10,000), starting at {@code -Dsim.firstSeed}
 * (default 0);</li>
 * <li>{@code -Dsim.seconds=S} time box (default {@value #DEFAULT_SECONDS}, which covers the default
 * seeds on a loaded 2-core box: see docs/architecture.md for the measured rate);</li>
 * <li>{@code -Dsim.threads=T} seeds run at once (default 2; each seed is single-threaded and
 * deterministic whatever the thread count);</li>
 * <li>{@code -Dsim.seed=N} replays one seed exactly and prints its trace ({@code -Dsim.variant=V} for a
 * broken variant).</li>
 * </ul>
 * Ends with the summary line {@code simulator: N seeds, V violations, K of K broken variants caught},
 * printed and written to {@code target/simulator-summary.txt} (surefire keeps test output in its
 * reports; {@code .ci/test} and {@code .ci/simulate.sh} print the file).
 */
class SimulatorTest {
    static final long DEFAULT_SECONDS = 170;
    static final String REPLAY = "bash .ci/simulate.sh --seed ";

    @Test
    void theProtocolKeepsEveryPropertyUnderFaults() throws IOException {
        Long replay = Long.getLong("sim.seed");
        if (replay != null) {
            String variant = System.getProperty("sim.variant", "CORRECT");
            Simulation.Result r = SimRunner.one(replay, Variant.valueOf(variant), true);
            r.trace().forEach(System.out::println);
            String verdict = r.failure() == null ? "all properties held"
                    : "FAILED at +" + r.failedAtMs() + " ms: " + r.failure().getMessage();
            System.out.printf("seed %d: %s after %d events, %d acks, %d takeovers, %d restarts%n", replay, verdict,
                    r.events(), r.acks(), r.takeovers(), r.restarts());
            summary("simulator: seed " + replay + " (" + variant + ") replayed: " + verdict);
            if (Variant.valueOf(variant) == Variant.CORRECT) {
                assertThat(r.failure()).as("seed " + replay).isNull();
            }
            return;
        }
        long seeds = Long.getLong("sim.seeds", 10_000);
        long first = Long.getLong("sim.firstSeed", 0);
        long seconds = Long.getLong("sim.seconds", DEFAULT_SECONDS);
        SimRunner.Batch b = SimRunner.batch(first, seeds, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds), Variant.CORRECT);
        System.out.printf("simulator: %d seeds (from %d) in %.1f s = %.0f seeds/s on %d thread(s); %.0f events/seed; "
                        + "%d acknowledged calls, %d takeovers, %d rejected conditional writes, %d process restarts, "
                        + "%d alarms fired, %d cells activated by the waker%n", b.seeds(), first, b.nanos() / 1e9, b.seedsPerSecond(),
                Integer.getInteger("sim.threads", 2), (double) b.events() / Math.max(1, b.seeds()), b.acks(), b.takeovers(),
                b.casRejected(), b.restarts(), b.alarmsFired(), b.wakeActivations());
        String failed = null;
        if (b.failure() != null) {
            Simulation.Result f = b.failure();
            failed = "SIMULATION FAILED seed=" + f.seed() + " at +" + f.failedAtMs() + " ms: " + f.failure().getMessage()
                    + "\n  replay exactly: " + REPLAY + f.seed();
            System.out.println(failed);
        }
        if (b.seeds() < seeds) {
            System.out.printf("WARNING: the %d s time box stopped the run after %d of %d seeds (slow or loaded machine)%n",
                    seconds, b.seeds(), seeds);
        }
        long hunted = VariantHunt.results().size();
        long caught = VariantHunt.caught();
        summary((failed == null ? "" : failed + "\n") + "simulator: " + b.seeds() + " seeds, " + (b.failure() == null ? 0 : 1)
                + " violations, " + caught + " of " + hunted + " broken variants caught");
        if (failed != null) {
            throw new AssertionError(failed);
        }
        assertThat(caught).as("broken variants caught (BrokenVariantsTest says which one escaped)").isEqualTo(hunted);
    }

    private static void summary(String text) throws IOException {
        System.out.println(text);
        Path target = Path.of("target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("simulator-summary.txt"), text + "\n", StandardCharsets.UTF_8);
    }
}
