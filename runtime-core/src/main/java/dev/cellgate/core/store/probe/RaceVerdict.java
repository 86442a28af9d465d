package dev.cellgate.core.store.probe;

import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.List;

/**
 * What one race round of the storage probe shows (pure: the racers' answers and what the object
 * held afterwards). Only a round with exactly one clear winner, no unclear answer and the winner's
 * bytes and version stored {@link Kind#COUNTS}. A lost answer (ambiguous) makes a round
 * {@link Kind#UNCLEAR} — run it again — unless what is stored proves the store wrong anyway.
 */
record RaceVerdict(Kind kind, String detail) {

    enum Kind {
        /** One clear winner, stored: the round counts toward the probe. */
        COUNTS,
        /** Some answer was lost; nothing proves the store wrong: the round is run again. */
        UNCLEAR,
        /** The store is not atomic, or lost a write: final. */
        WRONG
    }

    /** Who holds the object after the round. */
    sealed interface Stored {
        /** The bytes of racer {@code index}, with this version. */
        record Racer(int index, String version) implements Stored {
        }

        /** The bytes from before the round. */
        record Before() implements Stored {
        }

        /**
         * The bytes of a racer of an earlier round whose answer was lost: its compare-and-swap was
         * still in flight and competed in this round (it names the same version when that round
         * left the object unchanged).
         */
        record Late(String version) implements Stored {
        }

        /** Bytes no racer wrote, or no object at all. */
        record Other(String what) implements Stored {
        }
    }

    /** The verdict before reading the object, when the answers alone prove a double win; else null. */
    static RaceVerdict fromAnswers(List<WriteOutcome> answers) {
        int winners = (int) answers.stream().filter(o -> o instanceof WriteOutcome.Written).count();
        if (winners > 1) {
            return new RaceVerdict(Kind.WRONG, winners + " of " + answers.size()
                    + " compare-and-swaps on the same version succeeded (want exactly 1): conditional writes are not atomic");
        }
        return null;
    }

    static RaceVerdict judge(List<WriteOutcome> answers, Stored stored) {
        RaceVerdict early = fromAnswers(answers);
        if (early != null) {
            return early;
        }
        int winner = -1;
        int unclear = -1;
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) instanceof WriteOutcome.Written) {
                winner = i;
            } else if (answers.get(i) instanceof WriteOutcome.Ambiguous && unclear < 0) {
                unclear = i;
            }
        }
        if (stored instanceof Stored.Other o) {
            return new RaceVerdict(Kind.WRONG, "the object holds " + o.what() + " after the race (a write that lost its race landed?)");
        }
        if (stored instanceof Stored.Racer r && !(answers.get(r.index()) instanceof WriteOutcome.Written)
                && !(answers.get(r.index()) instanceof WriteOutcome.Ambiguous)) {
            return new RaceVerdict(Kind.WRONG, "racer " + r.index() + " was rejected, yet its bytes are stored"
                    + " (a write that lost its race landed): conditional writes are not atomic");
        }
        if (stored instanceof Stored.Late && winner < 0) {
            return new RaceVerdict(Kind.UNCLEAR, "a compare-and-swap of an earlier round whose answer was lost won this one");
        }
        if (winner >= 0 && !(stored instanceof Stored.Racer r && r.index() == winner)) {
            boolean loserLanded = stored instanceof Stored.Racer || stored instanceof Stored.Late;
            return new RaceVerdict(Kind.WRONG, loserLanded
                    ? "racer " + winner + " won, but another racer's bytes are stored (a write that lost its race landed):"
                    + " conditional writes are not atomic"
                    : "racer " + winner + " won, but the object still holds the bytes from before the race");
        }
        if (winner >= 0 && stored instanceof Stored.Racer r
                && !r.version().equals(((WriteOutcome.Written) answers.get(winner)).version())) {
            return new RaceVerdict(Kind.WRONG, "the stored version is " + r.version() + ", the winner was told "
                    + ((WriteOutcome.Written) answers.get(winner)).version());
        }
        if (unclear >= 0) {
            return new RaceVerdict(Kind.UNCLEAR, "racer " + unclear + " got an ambiguous answer ("
                    + ((WriteOutcome.Ambiguous) answers.get(unclear)).reason() + ")");
        }
        if (winner < 0) {
            return new RaceVerdict(Kind.WRONG, "none of " + answers.size() + " compare-and-swaps with the current version succeeded");
        }
        return new RaceVerdict(Kind.COUNTS, "racer " + winner + " won");
    }
}
