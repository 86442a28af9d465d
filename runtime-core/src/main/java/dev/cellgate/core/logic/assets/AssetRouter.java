package dev.cellgate.core.logic.assets;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cloudflare's answer for a request to the static assets, decided without I/O: which file (by
 * {@link HtmlHandling}), the redirect to the canonical spelling, 404, 405 for a method other than
 * GET/HEAD where an asset would be served, and 304 for an {@code If-None-Match} naming the file's
 * ETag (strong or weak). Headers are the ones workerd's asset service sets: {@code ETag} (quoted),
 * {@code Content-Type} (when the file has one) and {@code Cache-Control: public, max-age=0,
 * must-revalidate}. Redirects are 307 and keep the query string.
 */
public final class AssetRouter {
    static final String CACHE_CONTROL = "public, max-age=0, must-revalidate";

    private final HtmlHandling handling;

    public AssetRouter(HtmlHandling handling) {
        this.handling = handling;
    }

    /**
     * @param pathname    the request's URL pathname as {@code new URL(url).pathname} gives it ({@link UrlPaths})
     * @param search      the query with its {@code ?}, or empty
     * @param ifNoneMatch the request's {@code If-None-Match}, or null
     */
    public AssetResponse route(String method, String pathname, String search, String ifNoneMatch) {
        String decoded = UriComponents.decodePath(pathname);
        HtmlHandling.Intent intent = handling.resolve(decoded);
        if (intent == null) {
            return AssetResponse.empty(404);
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return AssetResponse.empty(405);
        }
        String canonical = UriComponents.encodePath(intent.redirect() != null ? intent.redirect() : decoded);
        if (intent.redirect() != null || !canonical.equals(pathname)) {
            return new AssetResponse(307, Map.of("Location", canonical + search), null, null);
        }
        AssetEntry asset = intent.asset();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("ETag", '"' + asset.etag() + '"');
        if (asset.contentType() != null) {
            headers.put("Content-Type", asset.contentType());
        }
        headers.put("Cache-Control", CACHE_CONTROL);
        if (ifNoneMatch != null && EntityTags.matches(ifNoneMatch, asset.etag())) {
            return new AssetResponse(304, headers, null, intent.file());
        }
        return new AssetResponse(intent.status(), headers, method.equals("HEAD") ? null : asset, intent.file());
    }
}
