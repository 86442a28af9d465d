package dev.cellgate.core.logic.assets;

/**
 * Who answers a request to a deployment with static assets, as workerd's router decides it
 * (checked against miniflare). Without a Worker, the assets answer everything
 * ({@code not_found_handling} included). With one, the Worker answers when {@code run_worker_first}
 * says so. With {@code run_worker_first} as a list of routes, every other request is the assets'
 * alone, fallback page and 405 included. Otherwise the Worker also answers when no
 * {@code _redirects} rule or file matches (the fallback page is not used then;
 * {@code env.ASSETS.fetch} still applies it). A method other than GET/HEAD on a path that matches
 * gets the assets' 405.
 */
public final class PublicAssets {
    private final AssetRouter router;
    private final AssetRouter withoutFallback;
    private final WorkerFirst workerFirst;

    public PublicAssets(HtmlHandling handling, RedirectRules redirects, HeaderRules headers, WorkerFirst workerFirst) {
        this.router = new AssetRouter(handling, redirects, headers);
        this.withoutFallback = new AssetRouter(handling.withNotFoundHandling("none"), redirects, headers);
        this.workerFirst = workerFirst;
    }

    /** The assets' answer to a public request, or null when the Worker answers it. */
    public AssetResponse route(AssetRequest req, boolean hasWorker) {
        if (!hasWorker) {
            return router.route(req);
        }
        if (workerFirst.workerFirst(req.pathname())) {
            return null;
        }
        if (workerFirst.routed()) {
            return router.route(req);
        }
        AssetResponse r = withoutFallback.route(req);
        return r.status() == 404 ? null : r;
    }

    /** The answer of {@code env.ASSETS.fetch(request)}. */
    public AssetResponse binding(AssetRequest req) {
        return router.route(req);
    }
}
