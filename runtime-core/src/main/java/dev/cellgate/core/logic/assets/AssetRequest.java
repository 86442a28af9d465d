package dev.cellgate.core.logic.assets;

/**
 * The parts of a request asset routing reads.
 *
 * @param pathname    as {@code new URL(url).pathname} gives it ({@link UrlPaths})
 * @param search      the query with its {@code ?}, or empty
 * @param ifNoneMatch the {@code If-None-Match} header, or null
 * @param uncacheable the request has a {@code Range} or {@code Authorization} header (no default Cache-Control then)
 * @param range       the {@code Range} header, or null ({@link ByteRange})
 * @param ifRange     the {@code If-Range} header, or null
 */
public record AssetRequest(String method, String hostname, String pathname, String search, String ifNoneMatch,
                           boolean uncacheable, String range, String ifRange) {
    /** A request without Range. */
    public AssetRequest(String method, String hostname, String pathname, String search, String ifNoneMatch, boolean uncacheable) {
        this(method, hostname, pathname, search, ifNoneMatch, uncacheable, null, null);
    }

    public static AssetRequest get(String pathname) {
        return new AssetRequest("GET", "localhost", pathname, "", null, false);
    }

    public AssetRequest withIfNoneMatch(String etag) {
        return new AssetRequest(method, hostname, pathname, search, etag, uncacheable, range, ifRange);
    }

    public AssetRequest withRange(String range, String ifRange) {
        return new AssetRequest(method, hostname, pathname, search, ifNoneMatch, uncacheable || range != null, range, ifRange);
    }
}
