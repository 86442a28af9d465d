package dev.cellgate.sim;

import java.util.EnumMap;
import java.util.Map;

/**
 * Looks for the seed that catches each broken variant, once per test JVM: {@link BrokenVariantsTest}
 * asserts what caught each one, and {@link SimulatorTest} counts them for its summary line, without
 * hunting twice. A variant must be caught within {@link #MAX_SEEDS} seeds from
 * {@code -Dsim.variantFirstSeed} (default 0).
 */
final class VariantHunt {
    static final int MAX_SEEDS = 300;
    private static Map<Variant, SimRunner.Batch> found;

    private VariantHunt() {
    }

    static long firstSeed() {
        return Long.getLong("sim.variantFirstSeed", 0);
    }

    /** Each broken variant's hunt; {@code failure()} is null for a variant no seed caught. */
    static synchronized Map<Variant, SimRunner.Batch> results() {
        if (found == null) {
            Map<Variant, SimRunner.Batch> m = new EnumMap<>(Variant.class);
            for (Variant v : Variant.values()) {
                if (v != Variant.CORRECT) {
                    m.put(v, SimRunner.batch(firstSeed(), MAX_SEEDS, Long.MAX_VALUE, v));
                }
            }
            found = m;
        }
        return found;
    }

    static long caught() {
        return results().values().stream().filter(b -> b.failure() != null).count();
    }
}
