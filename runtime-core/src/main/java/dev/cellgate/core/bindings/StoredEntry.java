package dev.cellgate.core.bindings;

import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How a KV value or an R2 object is one bucket object: the BucketStore SPI has no object metadata,
 * so a small JSON header (expiration and metadata of a KV entry; size, etag, http and custom
 * metadata of an R2 object) precedes the bytes: {@code magic, u32 header length, header, value}.
 * The magic names the format and its version, so a later layout can read this one.
 */
record StoredEntry(JsonObject header, byte[] value) {
    static final byte[] KV = "CGKV1".getBytes(StandardCharsets.US_ASCII);
    static final byte[] R2 = "CGR21".getBytes(StandardCharsets.US_ASCII);

    byte[] encode(byte[] magic) {
        byte[] h = header.encode().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(magic.length + 4 + h.length + value.length);
        b.put(magic).putInt(h.length).put(h).put(value);
        return b.array();
    }

    static StoredEntry decode(byte[] magic, byte[] bytes, String key) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] m = new byte[magic.length];
        if (bytes.length < magic.length + 4) {
            throw new IllegalStateException("bucket object " + key + " is not a " + new String(magic, StandardCharsets.US_ASCII) + " entry");
        }
        b.get(m);
        if (!java.util.Arrays.equals(m, magic)) {
            throw new IllegalStateException("bucket object " + key + " is not a " + new String(magic, StandardCharsets.US_ASCII) + " entry");
        }
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalStateException("bucket object " + key + " has a truncated header");
        }
        byte[] h = new byte[n];
        b.get(h);
        byte[] value = new byte[b.remaining()];
        b.get(value);
        return new StoredEntry(new JsonObject(new String(h, StandardCharsets.UTF_8)), value);
    }
}
