package dev.cellgate.core.logic;

import java.nio.charset.StandardCharsets;

/**
 * R2's decisions that do not need the store: which object names are valid here, which byte range
 * a {@code get} reads, whether an {@code onlyIf} precondition holds, and the listing limit — with
 * the messages workerd (miniflare) answers. Errors carry R2's numeric code in parentheses as on
 * Cloudflare.
 */
public final class R2Rules {
    /** Cloudflare's limit on an object name. */
    public static final int MAX_KEY_BYTES = 1024;
    /**
     * The longest name cellgate can store: the encoded name plus the {@code r2/<bucket>/} prefix must
     * fit the 1,024-byte key limit of S3 and GCS (docs/bindings.md). Longer valid names are refused by name.
     */
    public static final int STORABLE_KEY_BYTES = 560;
    public static final int MAX_LIST_LIMIT = 1000;

    private R2Rules() {
    }

    /** The message for {@code key} on {@code op} ({@code put}, {@code get}, …), or null when it can be stored. */
    public static String key(String op, String key) {
        int n = key.getBytes(StandardCharsets.UTF_8).length;
        if (n > MAX_KEY_BYTES) {
            return op + ": The specified object name is not valid. (10020)";
        }
        if (n > STORABLE_KEY_BYTES) {
            return op + ": cellgate stores object names of at most " + STORABLE_KEY_BYTES + " UTF-8 bytes (this one has " + n
                    + "; R2's own limit is 1024)";
        }
        return null;
    }

    /** The listing limit's message, or null; NaN is the default. */
    public static String listLimit(double limit) {
        if (Double.isNaN(limit)) {
            return null;
        }
        return limit < 1 || limit > MAX_LIST_LIMIT || limit != Math.rint(limit)
                ? "list: MaxKeys params must be positive integer <= 1000. (10022)" : null;
    }

    /** R2's multipart limits: part numbers, and the size every part but the last must have. */
    public static final int MAX_PART_NUMBER = 10_000;
    public static final long MIN_PART_BYTES = 5L * 1024 * 1024;

    /** The part number's message, or null. */
    public static String partNumber(double n) {
        return n >= 1 && n <= MAX_PART_NUMBER && n == Math.rint(n) ? null
                : "Part number must be between 1 and 10000 (inclusive). Actual value was: " + (n == Math.rint(n) ? Long.toString((long) n) : Double.toString(n));
    }

    /**
     * Whether parts of these sizes, in the order given, make an object: every part but the last at
     * least {@link #MIN_PART_BYTES} and all of them the same size (R2's rule). Null when they do,
     * else R2's message.
     */
    public static String completable(long[] sizes) {
        for (int i = 0; i < sizes.length - 1; i++) {
            if (sizes[i] < MIN_PART_BYTES) {
                return "completeMultipartUpload: Your proposed upload is smaller than the minimum allowed object size. (10011)";
            }
        }
        for (int i = 1; i < sizes.length - 1; i++) {
            if (sizes[i] != sizes[0]) {
                return "completeMultipartUpload: There was a problem with the multipart upload. (10048)";
            }
        }
        return null;
    }

    /** A range workerd refuses before asking the store: a {@code RangeError} in JavaScript. */
    public static final class BadRange extends IllegalArgumentException {
        public BadRange(String message) {
            super(message);
        }
    }

    /** A resolved byte range of an object. */
    public record Range(long offset, long length) {
    }

    /**
     * The bytes a {@code get} reads from an object of {@code size} bytes: {@code offset}/{@code length}/
     * {@code suffix} are NaN when absent (the whole object when all are).
     *
     * @throws IllegalArgumentException with R2's message when the range cannot be satisfied
     *                                  ({@link BadRange} when it is malformed)
     */
    public static Range range(long size, double offset, double length, double suffix) {
        if (!Double.isNaN(suffix)) {
            if ((long) suffix <= 0) {
                throw new IllegalArgumentException("get: The requested range is not satisfiable (10039)");
            }
            long s = Math.min((long) suffix, size);
            return new Range(size - s, s);
        }
        if (!Double.isNaN(offset) && offset < 0) {
            throw new BadRange("Invalid range. Starting offset (" + (long) offset + ") must be greater than or equal to 0.");
        }
        long off = Double.isNaN(offset) ? 0 : (long) offset;
        if (off < 0 || (off >= size && size > 0) || (size == 0 && off > 0)) {
            throw new IllegalArgumentException("get: The requested range is not satisfiable (10039)");
        }
        long len = Double.isNaN(length) ? size - off : Math.min((long) length, size - off);
        if (len < 0 || (!Double.isNaN(length) && (long) length == 0)) { // R2 refuses an empty range
            throw new IllegalArgumentException("get: The requested range is not satisfiable (10039)");
        }
        return new Range(off, len);
    }

    /**
     * Whether an {@code onlyIf} holds for an object with {@code etag} uploaded at {@code uploadedMs}
     * (etag null: no object). Etag lists are R2's: a comma-separated list of plain or quoted etags,
     * {@code *} for any; times are epoch ms (NaN: absent), compared at whole seconds when
     * {@code secondsGranularity}. As in HTTP, a matching {@code etagMatches} makes
     * {@code uploadedBefore} moot and a non-matching {@code etagDoesNotMatch} makes
     * {@code uploadedAfter} moot.
     */
    public static boolean holds(String etag, long uploadedMs, String etagMatches, String etagDoesNotMatch,
                                double uploadedBefore, double uploadedAfter, boolean secondsGranularity) {
        boolean exists = etag != null;
        Boolean match = etagMatches == null ? null : exists && anyEtag(etagMatches, etag);
        Boolean noneMatch = etagDoesNotMatch == null ? null : !(exists && anyEtag(etagDoesNotMatch, etag));
        if (Boolean.FALSE.equals(match) || Boolean.FALSE.equals(noneMatch)) {
            return false;
        }
        long up = secondsGranularity ? uploadedMs / 1000 * 1000 : uploadedMs;
        if (!Double.isNaN(uploadedBefore) && match == null && exists) {
            long before = secondsGranularity ? (long) uploadedBefore / 1000 * 1000 : (long) uploadedBefore;
            if (up >= before) {
                return false;
            }
        }
        if (!Double.isNaN(uploadedAfter) && noneMatch == null && exists) {
            long after = secondsGranularity ? (long) uploadedAfter / 1000 * 1000 : (long) uploadedAfter;
            if (up <= after) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyEtag(String list, String etag) {
        for (String e : list.split(",")) {
            String t = e.trim();
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
                t = t.substring(1, t.length() - 1);
            }
            if (t.equals("*") || t.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
