package dev.cellgate.core.spi.bucket;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A parsed bucket URL: {@code scheme://bucket[/prefix]}. For {@code file://} the "bucket" and
 * prefix together form the directory path ({@code file:///abs/path} or {@code file://./relative}).
 */
public record BucketUrl(String raw, String scheme, String bucket, String prefix) {

    private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");

    public static BucketUrl parse(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("empty bucket URL");
        }
        int sep = raw.indexOf("://");
        if (sep <= 0) {
            throw new IllegalArgumentException("bucket URL '" + raw + "' must look like scheme://bucket[/prefix]");
        }
        String scheme = raw.substring(0, sep).toLowerCase(Locale.ROOT);
        if (!SCHEME.matcher(scheme).matches()) {
            throw new IllegalArgumentException("bucket URL '" + raw + "' has an invalid scheme");
        }
        String rest = raw.substring(sep + 3);
        if (scheme.equals("file")) {
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("bucket URL '" + raw + "' names no directory");
            }
            return new BucketUrl(raw, scheme, rest, "");
        }
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        while (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket URL '" + raw + "' names no bucket");
        }
        if (prefix.contains("//")) {
            throw new IllegalArgumentException("bucket URL '" + raw + "' has an empty path segment in its prefix");
        }
        return new BucketUrl(raw, scheme, bucket, prefix);
    }

    /** The key under the store's prefix: {@code prefix/key}, or {@code key} without prefix. */
    public String fullKey(String key) {
        return prefix.isEmpty() ? key : prefix + "/" + key;
    }

    @Override
    public String toString() {
        return raw;
    }
}
