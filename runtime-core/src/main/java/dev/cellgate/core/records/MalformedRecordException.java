package dev.cellgate.core.records;

/**
 * A bucket record that does not parse or lacks a field. Callers treat it conservatively: a
 * malformed lease is never proof that a node is dead, a malformed ownership record never proof
 * that a cell is free.
 */
public class MalformedRecordException extends RuntimeException {
    public MalformedRecordException(String message) {
        super(message);
    }
}
