package dev.cellgate.core.fleet;

/** A decoded bucket record with the version a later compare-and-swap must name. */
public record StoredRecord<T>(T value, String version) {
}
