package dev.cellgate.core.logic;

import java.nio.charset.StandardCharsets;

/**
 * Cloudflare KV's limits and the errors it answers when a call breaks one, with the wording
 * workerd (miniflare) uses: the KV binding checks every call here before it touches the bucket.
 * A method answers null when the input is fine, else the error's message; {@link Refusal} says
 * which JavaScript class it is thrown as.
 */
public final class KvRules {
    public static final int MAX_KEY_BYTES = 512;
    public static final int MAX_VALUE_BYTES = 25 * 1024 * 1024;
    public static final int MAX_METADATA_BYTES = 1024;
    public static final int MAX_LIST_LIMIT = 1000;
    public static final int MIN_EXPIRATION_TTL_S = 60;
    public static final int MIN_CACHE_TTL_S = 30;
    /** How long a node may answer reads from its own copy when the read names no {@code cacheTtl} (Cloudflare's default). */
    public static final int DEFAULT_CACHE_TTL_S = 60;

    /** A refused call: {@code jsName} is the JavaScript error class. */
    public record Refusal(String jsName, String message) {
    }

    private KvRules() {
    }

    /** {@code op} is the upper-case operation of the message ({@code GET}, {@code PUT}, {@code DELETE}). */
    public static Refusal key(String op, String key) {
        if (key.isEmpty()) {
            return new Refusal("TypeError", "Key name cannot be empty.");
        }
        if (key.equals(".") || key.equals("..")) {
            return new Refusal("TypeError", "\"" + key + "\" is not allowed as a key name.");
        }
        int n = key.getBytes(StandardCharsets.UTF_8).length;
        if (n > MAX_KEY_BYTES) {
            return failed(op, 414, "UTF-8 encoded length of " + n + " exceeds key length limit of " + MAX_KEY_BYTES + ".");
        }
        return null;
    }

    /** Cloudflare's bound on the keys of one bulk get. */
    public static final int MAX_BULK_KEYS = 100;

    /** A bulk get of {@code count} keys as {@code type}: 1 to 100 keys, and only {@code text} or {@code json}. */
    public static Refusal bulk(int count, String type) {
        if (!type.equals("text") && !type.equals("json")) {
            return failed("GET_BULK", 400, "\"" + type + "\" is not a valid type. Use \"json\" or \"text\"");
        }
        if (count < 1) {
            return failed("GET_BULK", 400, "You must request a minimum of 1 key");
        }
        if (count > MAX_BULK_KEYS) {
            return failed("GET_BULK", 400, "You can request a maximum of " + MAX_BULK_KEYS + " keys");
        }
        return null;
    }

    public static Refusal cacheTtl(String op, double cacheTtl) {
        if (!Double.isNaN(cacheTtl) && cacheTtl < MIN_CACHE_TTL_S) {
            return failed(op, 400, "Invalid cache_ttl of " + whole(cacheTtl) + ". Cache TTL must be at least " + MIN_CACHE_TTL_S + ".");
        }
        return null;
    }

    /**
     * The expiration (epoch seconds) a put stores, or a refusal. {@code expiration} and
     * {@code expirationTtl} are NaN when absent; a non-number was already turned into 0 by the
     * binding, as workerd's integer conversion does.
     */
    public static Refusal expiration(double expiration, double expirationTtl, long nowS) {
        if (!Double.isNaN(expirationTtl)) {
            long ttl = (long) expirationTtl;
            if (ttl <= 0) {
                return failed("PUT", 400, "Invalid expiration_ttl of " + ttl + ". Please specify integer greater than 0.");
            }
            if (ttl < MIN_EXPIRATION_TTL_S) {
                return failed("PUT", 400, "Invalid expiration_ttl of " + ttl + ". Expiration TTL must be at least " + MIN_EXPIRATION_TTL_S + ".");
            }
        }
        if (!Double.isNaN(expiration)) {
            long at = (long) expiration;
            if (at <= nowS) {
                return failed("PUT", 400, "Invalid expiration of " + at
                        + ". Please specify integer greater than the current number of seconds since the UNIX epoch.");
            }
            if (at < nowS + MIN_EXPIRATION_TTL_S) {
                return failed("PUT", 400, "Invalid expiration of " + at + ". Expiration times must be at least "
                        + MIN_EXPIRATION_TTL_S + " seconds in the future.");
            }
        }
        return null;
    }

    /** The absolute expiration (epoch seconds) of an accepted put, or -1 for none; expirationTtl wins, as on Cloudflare. */
    public static long expiresAt(double expiration, double expirationTtl, long nowS) {
        if (!Double.isNaN(expirationTtl)) {
            return nowS + (long) expirationTtl;
        }
        return Double.isNaN(expiration) ? -1 : (long) expiration;
    }

    public static Refusal metadata(int jsonBytes) {
        return jsonBytes > MAX_METADATA_BYTES
                ? failed("PUT", 413, "Metadata length of " + jsonBytes + " exceeds limit of " + MAX_METADATA_BYTES + ".") : null;
    }

    public static Refusal value(long bytes) {
        return bytes > MAX_VALUE_BYTES ? failed("PUT", 413, "Value length of " + bytes + " exceeds limit of " + MAX_VALUE_BYTES + ".") : null;
    }

    /** A list's limit; NaN or 0 is the default ({@value #MAX_LIST_LIMIT}). */
    public static Refusal listLimit(double limit) {
        if (Double.isNaN(limit) || limit == 0) {
            return null;
        }
        long n = (long) limit;
        if (n < 0) {
            return failed("GET", 400, "Invalid key_count_limit of " + n + ". Please specify an integer greater than 0.");
        }
        if (n > MAX_LIST_LIMIT) {
            return failed("GET", 400, "Invalid key_count_limit of " + n + ". Please specify an integer less than " + MAX_LIST_LIMIT + ".");
        }
        return null;
    }

    public static int listLimitOrDefault(double limit) {
        return Double.isNaN(limit) || limit == 0 ? MAX_LIST_LIMIT : (int) limit;
    }

    /** Whether an entry that expires at {@code expiresAtS} (-1: never) is gone at {@code nowS}. */
    public static boolean expired(long expiresAtS, long nowS) {
        return expiresAtS >= 0 && expiresAtS <= nowS;
    }

    private static Refusal failed(String op, int status, String message) {
        return new Refusal("Error", "KV " + op + " failed: " + status + " " + message);
    }

    private static String whole(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /**
     * Whether a copy this node cached at {@code cachedAtMs} (read from the bucket, or written here)
     * may answer a read at {@code nowMs} that asked for {@code cacheTtl} seconds (NaN: absent, the
     * default 60): Cloudflare's eventual consistency, where another location's write is seen once
     * the reader's cached copy is older than its cacheTtl.
     */
    public static boolean cachedCopyServes(long cachedAtMs, long nowMs, double cacheTtl) {
        double ttlS = Double.isNaN(cacheTtl) ? DEFAULT_CACHE_TTL_S : cacheTtl;
        return nowMs - cachedAtMs < ttlS * 1000;
    }
}
