package dev.cellgate.core.logic.assets;

import java.util.Locale;

/**
 * What a {@code Range} header asks of an asset of {@code length} bytes, by RFC 9110 §14 as
 * Cloudflare's cache answers static assets in production: one satisfiable byte range gives a
 * {@code 206} with {@code Content-Range}; a range past the end (or a suffix of 0 bytes) gives
 * {@code 416} with {@code Content-Range: bytes *}{@code /length}; anything else — no header, a
 * header that does not parse, another unit, several ranges, or an {@code If-Range} that is not
 * the asset's strong ETag — is the whole file with its usual status (RFC 9110 lets a server
 * ignore a Range it will not serve). Miniflare's asset worker ignores Range altogether.
 *
 * @param status 206, 416, or 0 for "serve the whole file"
 * @param first  first byte served (206 only)
 * @param last   last byte served, inclusive (206 only)
 */
public record ByteRange(int status, long first, long last) {
    public static final ByteRange WHOLE = new ByteRange(0, 0, -1);

    /**
     * @param range   the request's {@code Range}, or null
     * @param ifRange the request's {@code If-Range}, or null
     * @param etag    the asset's ETag, unquoted
     */
    public static ByteRange of(String range, String ifRange, String etag, long length) {
        if (range == null) {
            return WHOLE;
        }
        if (ifRange != null && !ifRange.trim().equals('"' + etag + '"')) {
            return WHOLE; // a date, a weak tag or another tag: the representation may have changed
        }
        String r = range.trim();
        int eq = r.indexOf('=');
        if (eq < 0 || !r.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("bytes")) {
            return WHOLE;
        }
        String spec = r.substring(eq + 1).trim();
        if (spec.isEmpty() || spec.indexOf(',') >= 0) {
            return WHOLE;
        }
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return WHOLE;
        }
        String a = spec.substring(0, dash).trim();
        String b = spec.substring(dash + 1).trim();
        if (a.isEmpty()) {
            long suffix = digits(b);
            if (suffix < 0) {
                return WHOLE;
            }
            if (suffix == 0 || length == 0) {
                return unsatisfiable();
            }
            return new ByteRange(206, Math.max(0, length - suffix), length - 1);
        }
        long first = digits(a);
        long last = b.isEmpty() ? Long.MAX_VALUE : digits(b);
        if (first < 0 || last < 0 || last < first) {
            return WHOLE;
        }
        if (first >= length) {
            return unsatisfiable();
        }
        return new ByteRange(206, first, Math.min(last, length - 1));
    }

    private static ByteRange unsatisfiable() {
        return new ByteRange(416, 0, -1);
    }

    /** The value of a non-empty run of ASCII digits, capped at Long.MAX_VALUE; -1 when it is not one. */
    private static long digits(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v > (Long.MAX_VALUE - (c - '0')) / 10 ? Long.MAX_VALUE : v * 10 + (c - '0');
        }
        return v;
    }

    /** The {@code Content-Range} of this answer for an asset of {@code length} bytes. */
    public String contentRange(long length) {
        return status == 206 ? "bytes " + first + "-" + last + "/" + length : "bytes */" + length;
    }

    public long size() {
        return last - first + 1;
    }
}
