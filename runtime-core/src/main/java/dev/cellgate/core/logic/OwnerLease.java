package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;

/** What reading a cell owner's lease found. Malformed is its own case: never proof of death. */
public sealed interface OwnerLease {
    record Missing() implements OwnerLease {
    }

    record Malformed(String reason) implements OwnerLease {
    }

    record Present(LeaseRecord lease) implements OwnerLease {
    }

    OwnerLease MISSING = new Missing();
}
