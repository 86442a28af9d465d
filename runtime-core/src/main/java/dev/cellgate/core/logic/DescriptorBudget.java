package dev.cellgate.core.logic;

import java.util.OptionalInt;

/**
 * How many cells a process may keep resident before it runs out of file descriptors. A resident
 * cell holds {@value #PER_CELL}: the database, its WAL and shared-memory file, all of the cell's
 * one connection (the replicator checkpoints through it; {@code HostConnectionTest} in
 * replicator-wal counts them). Without this
 * ceiling a node that fills up fails activations, accepts and plugin scans with "Too many open
 * files" instead of shedding idle cells.
 */
public final class DescriptorBudget {
    /** Descriptors a resident cell holds. */
    public static final int PER_CELL = 3;
    /** Left for everything else: sockets, jars, logs, the JVM's own files. */
    public static final int RESERVED = 1024;

    private DescriptorBudget() {
    }

    /** What the node does with its resident limit, given the process's open-file limit. */
    public sealed interface Verdict {
    }

    /** The configured limit (or none) fits. */
    public record Fits(OptionalInt maxResident) implements Verdict {
    }

    /** No limit was configured: the descriptors impose this one. */
    public record Capped(int maxResident, long openFileLimit) implements Verdict {
    }

    /** The configured limit cannot be held with this many descriptors. */
    public record TooHigh(int configured, long needed, long openFileLimit) implements Verdict {
    }

    /**
     * @param openFileLimit the process's limit, or a value &lt;= 0 when unknown (then nothing is capped)
     * @param configured    {@code CELLD_MAX_RESIDENT_CELLS}, empty when unlimited
     */
    public static Verdict decide(long openFileLimit, OptionalInt configured) {
        if (openFileLimit <= 0) {
            return new Fits(configured);
        }
        long ceiling = Math.max(1, (openFileLimit - RESERVED) / PER_CELL);
        if (configured.isEmpty()) {
            return ceiling >= Integer.MAX_VALUE ? new Fits(configured) : new Capped((int) ceiling, openFileLimit);
        }
        long needed = (long) configured.getAsInt() * PER_CELL + RESERVED;
        return needed <= openFileLimit ? new Fits(configured) : new TooHigh(configured.getAsInt(), needed, openFileLimit);
    }
}
