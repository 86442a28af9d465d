package dev.cellgate.core.logic.assets;

/**
 * {@code If-None-Match} against an asset's ETag with the weak comparison RFC 9110 §13.1.2 asks for:
 * {@code "x"} and {@code W/"x"} both match, {@code *} matches any existing file, a list matches when
 * one member does.
 */
public final class EntityTags {
    private EntityTags() {
    }

    /** @param etag the bare tag (no quotes) */
    public static boolean matches(String ifNoneMatch, String etag) {
        for (String member : ifNoneMatch.split(",")) {
            String t = member.trim();
            if (t.equals("*")) {
                return true;
            }
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.equals('"' + etag + '"')) {
                return true;
            }
        }
        return false;
    }
}
