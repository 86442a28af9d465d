package dev.cellgate.core.logic.assets;

import java.util.regex.Pattern;

/**
 * One uploaded asset: the SHA-256 of its bytes (the blob that holds them), its size and its content
 * type (null: none is sent, as for a file Cloudflare finds no type for). Its ETag is the first 32
 * hex digits of the digest: a content hash of Cloudflare's length, equal on every node and for the
 * same bytes in any deployment.
 */
public record AssetEntry(String sha256, long size, String contentType) {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    public AssetEntry {
        if (sha256 == null || !HEX64.matcher(sha256).matches()) {
            throw new IllegalArgumentException("asset digest must be 64 lowercase hex digits, got " + sha256);
        }
        if (size < 0) {
            throw new IllegalArgumentException("asset size must not be negative, got " + size);
        }
    }

    public String etag() {
        return sha256.substring(0, 32);
    }
}
