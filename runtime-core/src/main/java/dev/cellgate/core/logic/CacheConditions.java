package dev.cellgate.core.logic;

/**
 * Whether a cached response answers a conditional request with 304, as workerd's local cache
 * (miniflare) decides: {@code If-None-Match} against the stored strong or weak {@code ETag}
 * ({@code *} matches any), else {@code If-Modified-Since} not before the stored
 * {@code Last-Modified} (both strict IMF-fixdate). Pure.
 */
public final class CacheConditions {
    private CacheConditions() {
    }

    public static boolean notModified(String ifNoneMatch, String etag, String ifModifiedSince, String lastModified) {
        if (ifNoneMatch != null && etag != null) {
            String tag = opaque(etag);
            if (tag != null) {
                if (ifNoneMatch.strip().equals("*")) {
                    return true;
                }
                for (String candidate : ifNoneMatch.split(",")) {
                    if (tag.equals(opaque(candidate))) {
                        return true;
                    }
                }
            }
        }
        if (ifModifiedSince != null && lastModified != null) {
            long since = fixdate(ifModifiedSince);
            long modified = fixdate(lastModified);
            return since != Long.MIN_VALUE && modified != Long.MIN_VALUE && modified <= since;
        }
        return false;
    }

    /** The quoted part of {@code "x"} or {@code W/"x"}, or null. */
    static String opaque(String v) {
        String t = v.strip();
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        if (t.length() >= 3 && t.startsWith("\"") && t.endsWith("\"")) {
            return t.substring(1, t.length() - 1);
        }
        return null;
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT} exactly, else MIN_VALUE. */
    static long fixdate(String s) {
        if (s.length() != 29 || !s.endsWith(" GMT") || s.charAt(3) != ',') {
            return Long.MIN_VALUE;
        }
        return HttpCachePolicy.parseDate(s, Long.MIN_VALUE);
    }
}
