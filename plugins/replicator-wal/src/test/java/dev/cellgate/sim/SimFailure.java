package dev.cellgate.sim;

/** A property violated during a simulated run; {@code property} names which one. */
final class SimFailure extends RuntimeException {
    final String property;

    SimFailure(String property, String detail) {
        super(property + ": " + detail);
        this.property = property;
    }
}
