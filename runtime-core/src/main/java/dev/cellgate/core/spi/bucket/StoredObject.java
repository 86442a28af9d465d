package dev.cellgate.core.spi.bucket;

/** An object read from the bucket with the opaque version a later compare-and-swap must name. */
public record StoredObject(byte[] bytes, String version) {
    public StoredObject {
        if (bytes == null || version == null) {
            throw new IllegalArgumentException("bytes and version are required");
        }
    }
}
