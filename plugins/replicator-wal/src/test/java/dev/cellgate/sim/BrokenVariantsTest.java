package dev.cellgate.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each deliberately broken protocol variant must be caught by the simulator's properties within a
 * bounded number of seeds (issue 12, part 2), and the seed that catches it must pass with the
 * correct protocol: the failure is the variant's, not noise. {@code -Dsim.variantFirstSeed} starts
 * the search elsewhere. Every variant of {@link Variant} must have a row here.
 */
class BrokenVariantsTest {
    static final int MAX_SEEDS = VariantHunt.MAX_SEEDS;

    @ParameterizedTest(name = "{0} is caught by \"{1}\"")
    @CsvSource(delimiter = '|', value = {
            "TAKEOVER_WITHOUT_LEASE_CHECK | no takeover from a live owner",
            // an acknowledged alarm is an acknowledged write: losing one shows as an alarm that never fires
            "ACK_BEFORE_DURABLE           | no acknowledged write lost; every armed alarm eventually fires",
            "GC_WITHOUT_TOMBSTONE         | a live lease is never retired",
            // epoch reuse shows as two writers under one epoch prefix, or as a restore of an older
            // lineage missing acknowledged writes or alarms, whichever the seed hits first
            // a stale owner whose confirm always says yes acknowledges writes under an epoch the new owner's pin bounds out
            "CONFIRM_SKIPPED              | no acknowledged write lost; every armed alarm eventually fires",
            // a wake entry whose delete was lost stays for good: the waker wakes the cell for nothing, forever
            "WAKE_ENTRY_NEVER_DELETED     | no stale wake entry outlives the faults",
            // after the store lost a pin, the cell moves: the next owner restores the older lineage and serves without the lost epoch
            "RESTORE_ACCEPTS_MISSING_PIN  | no acknowledged write lost; every armed alarm eventually fires",
            // a forward whose answer was lost ran: sending it again runs it twice
            "REROUTE_AFTER_DELIVERY       | a call runs at most once",
            "RELEASE_WITHOUT_EPOCH        | one writer per (cell, epoch); no acknowledged write lost; every armed alarm eventually fires",
            // nobody wakes an inactive cell's alarm, nor clears an entry whose delete was lost
            "NO_WAKER                     | every armed alarm eventually fires; no stale wake entry outlives the faults",
            // peers take a cell over at expires_ms while a holder serves to its full TTL: with clocks
            // a margin apart the old owner still serves when the takeover lands, or the taker judged a
            // lease dead that the rule with the margin says was live
            "LIVENESS_WITHOUT_MARGIN      | an owner stops serving before its cell is taken over; no takeover from a live owner"})
    void thePropertiesCatchTheBrokenVariant(Variant variant, String properties) {
        long first = VariantHunt.firstSeed();
        SimRunner.Batch b = VariantHunt.results().get(variant);
        assertThat(b.failure()).as("%s must be caught within %d seeds from seed %d", variant, MAX_SEEDS, first).isNotNull();
        Simulation.Result caught = b.failure();
        System.out.printf("%s caught by \"%s\" at seed %d, the %d%s seed tried (+%d ms into the run): %s%n", variant,
                caught.failure().property, caught.seed(), caught.seed() - first + 1, ordinal(caught.seed() - first + 1),
                caught.failedAtMs(), caught.failure().getMessage());
        assertThat(List.of(properties.split("; "))).contains(caught.failure().property);
        assertThat(SimRunner.one(caught.seed(), Variant.CORRECT, false).failure())
                .as("the same seed with the correct protocol").isNull();
        // what the printed replay command promises: the seed alone reproduces the run, event for event
        Simulation.Result again = SimRunner.one(caught.seed(), variant, false);
        assertThat(again.failure()).as("seed %d replayed", caught.seed()).isNotNull();
        assertThat(List.of(again.failure().getMessage(), again.failedAtMs(), again.events()))
                .as("seed %d replayed", caught.seed())
                .isEqualTo(List.of(caught.failure().getMessage(), caught.failedAtMs(), caught.events()));
    }

    /** A variant without a row above would be counted as caught without anyone saying what must catch it. */
    @Test
    void everyBrokenVariantHasItsRow() throws NoSuchMethodException {
        CsvSource rows = BrokenVariantsTest.class.getDeclaredMethod("thePropertiesCatchTheBrokenVariant", Variant.class, String.class)
                .getAnnotation(CsvSource.class);
        List<String> named = java.util.Arrays.stream(rows.value()).map(r -> r.substring(0, r.indexOf('|')).trim()).sorted().toList();
        List<String> variants = java.util.Arrays.stream(Variant.values()).filter(v -> v != Variant.CORRECT).map(Enum::name).sorted().toList();
        assertThat(named).isEqualTo(variants);
    }

    /**
     * What the margin is for, judged on its own: with the takeover rule not checked, taking cells over
     * at {@code expires_ms} while holders serve to their full TTL leaves an old owner serving a cell
     * someone else now owns, in seeds whose clocks stay within the margin.
     */
    @Test
    void theHarmOfDroppingTheMarginIsCaughtByItself() {
        SimRunner.Batch b = SimRunner.batch(0, MAX_SEEDS, Long.MAX_VALUE, Variant.LIVENESS_WITHOUT_MARGIN, 2,
                sim -> sim.checker.judgeTakeoverRule = false);
        assertThat(b.failure()).as("caught within %d seeds", MAX_SEEDS).isNotNull();
        System.out.printf("LIVENESS_WITHOUT_MARGIN (rule unchecked) caught by \"%s\" at seed %d: %s%n",
                b.failure().failure().property, b.failure().seed(), b.failure().failure().getMessage());
        assertThat(b.failure().failure().property).isEqualTo("an owner stops serving before its cell is taken over");
    }

    private static String ordinal(long n) {
        return n % 100 >= 11 && n % 100 <= 13 ? "th" : switch ((int) (n % 10)) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
    }
}
