package dev.cellgate.core.spi.bucket;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a bucket write did. Three values, because a timeout or a server error does not tell
 * whether the write happened: treating that case as either success or failure is how two nodes
 * end up owning one cell.
 */
public sealed interface WriteOutcome {

    /**
     * The write happened; {@code version} names the new object.
     *
     * @param serverTimeMs the store's clock when it took the write (epoch ms), when the store tells
     *                     it: an HTTP {@code Date} (whole seconds), an object's {@code updated} time, the
     *                     host clock of a local directory. Nodes compare it with their own clock (SPEC §20);
     *                     empty when unknown. Optional and additive: a store may always leave it empty.
     */
    record Written(String version, OptionalLong serverTimeMs) implements WriteOutcome {
        public Written {
            Objects.requireNonNull(serverTimeMs, "serverTimeMs (use OptionalLong.empty())");
        }

        public Written(String version) {
            this(version, OptionalLong.empty());
        }

        public static Written at(String version, long serverTimeMs) {
            return new Written(version, OptionalLong.of(serverTimeMs));
        }
    }

    /** A precondition failed cleanly (412, 409, the object exists, the version differs): nothing was written. */
    record Rejected(String reason) implements WriteOutcome {
    }

    /** The write may or may not have happened (timeout, 5xx, I/O error): re-read to reconcile. */
    record Ambiguous(String reason, Throwable cause) implements WriteOutcome {
    }

    default boolean written() {
        return this instanceof Written;
    }

    default String versionOrNull() {
        return this instanceof Written w ? w.version() : null;
    }
}
