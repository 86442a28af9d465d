package dev.cellgate.core.logic.assets;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cloudflare's answer for a request to the static assets, decided without I/O, in workerd's order:
 * <ol>
 *   <li>{@code _redirects}: a redirect rule answers with its status and {@code Location} (the
 *       request's query kept unless the destination has one); a 200 rule serves its destination's
 *       pathname instead of the request's;</li>
 *   <li>{@link HtmlHandling} picks the file (or not_found_handling's page); none: 404;</li>
 *   <li>a method other than GET/HEAD where something would be served: 405;</li>
 *   <li>a pathname not in its canonical form (the html_handling redirect, or the re-encoded
 *       spelling of the path): 307 to it, the query kept;</li>
 *   <li>{@code If-None-Match} naming the file's ETag (weak or strong): 304; else the file with its
 *       status (200, or 404 for a 404 page), a 200 narrowed by {@code Range} to a 206 or 416
 *       ({@link ByteRange}).</li>
 * </ol>
 * Headers are workerd's ({@code etag} quoted, {@code content-type} when the file has one,
 * {@code cache-control: public, max-age=0, must-revalidate} unless the request has Range or
 * Authorization), then {@code _headers} applied to every answer, redirects and 404s included.
 */
public final class AssetRouter {
    static final String CACHE_CONTROL = "public, max-age=0, must-revalidate";

    private final HtmlHandling handling;
    private final RedirectRules redirects;
    private final HeaderRules headerRules;

    public AssetRouter(HtmlHandling handling, RedirectRules redirects, HeaderRules headerRules) {
        this.handling = handling;
        this.redirects = redirects;
        this.headerRules = headerRules;
    }

    public AssetRouter(HtmlHandling handling) {
        this(handling, RedirectRules.none(), HeaderRules.none());
    }

    public AssetResponse route(AssetRequest req) {
        Map<String, String> headers = new LinkedHashMap<>();
        AssetResponse answer = decide(req, headers);
        headerRules.apply(req.hostname(), req.pathname(), headers);
        return new AssetResponse(answer.status(), headers, answer.body(), answer.file(), answer.range());
    }

    private AssetResponse decide(AssetRequest req, Map<String, String> headers) {
        String pathname = req.pathname();
        RedirectRules.Match rule = redirects.match(req.hostname(), pathname);
        if (rule != null && !rule.rewrite()) {
            String to = rule.destination();
            headers.put("location", to.contains("?") ? to : withSearch(to, req.search()));
            return new AssetResponse(rule.status(), Map.of(), null, null);
        }
        if (rule != null) {
            pathname = rule.destination().replaceAll("[?#].*", "");
        }
        String decoded = UriComponents.decodePath(pathname);
        HtmlHandling.Intent intent = handling.resolve(decoded);
        if (intent == null) {
            return new AssetResponse(404, Map.of(), null, null);
        }
        if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
            return new AssetResponse(405, Map.of(), null, null);
        }
        String canonical = UriComponents.encodePath(intent.redirect() != null ? intent.redirect() : decoded);
        if (intent.redirect() != null || !canonical.equals(pathname)) {
            headers.put("location", canonical + req.search());
            return new AssetResponse(307, Map.of(), null, null);
        }
        AssetEntry asset = intent.asset();
        headers.put("etag", '"' + asset.etag() + '"');
        if (asset.contentType() != null) {
            headers.put("content-type", asset.contentType());
        }
        if (!req.uncacheable()) {
            headers.put("cache-control", CACHE_CONTROL);
        }
        if (req.ifNoneMatch() != null && EntityTags.matches(req.ifNoneMatch(), asset.etag())) {
            return new AssetResponse(304, Map.of(), null, intent.file());
        }
        AssetEntry body = req.method().equals("HEAD") ? null : asset;
        ByteRange range = intent.status() == 200 ? ByteRange.of(req.range(), req.ifRange(), asset.etag(), asset.size()) : ByteRange.WHOLE;
        if (range.status() == 416) {
            headers.put("content-range", range.contentRange(asset.size()));
            return new AssetResponse(416, Map.of(), null, intent.file());
        }
        if (range.status() == 206) {
            headers.put("content-range", range.contentRange(asset.size()));
            return new AssetResponse(206, Map.of(), body, intent.file(), range);
        }
        return new AssetResponse(intent.status(), Map.of(), body, intent.file());
    }

    /** The request's query on a destination that has none, before the destination's fragment. */
    private static String withSearch(String to, String search) {
        if (search.isEmpty()) {
            return to;
        }
        int hash = to.indexOf('#');
        return hash < 0 ? to + search : to.substring(0, hash) + search + to.substring(hash);
    }
}
