package dev.cellgate.replicator.wal.format;

/** Bytes that are not a valid segment: wrong magic, truncated, checksum mismatch, bad page list. */
public class SegmentFormatException extends RuntimeException {
    public SegmentFormatException(String message) {
        super(message);
    }
}
