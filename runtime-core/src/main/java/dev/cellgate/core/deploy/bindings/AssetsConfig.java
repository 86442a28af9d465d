package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * The manifest's {@code assets}: how the Worker's static assets are served (Wrangler's
 * {@code assets} minus {@code directory}, which only the push reads). {@code runWorkerFirst} is
 * {@code true}/{@code false}, or the route patterns of Wrangler's array form in
 * {@code runWorkerFirstRoutes} (then {@code runWorkerFirst} is false). The optional env binding is
 * an {@link AssetsBinding} in {@code bindings}. {@code manifest} is the SHA-256 of the
 * {@link dev.cellgate.core.deploy.AssetManifest} the push stored at {@code assets/<manifest>}.
 * {@code hasUserWorker} is false for an assets-only project (Wrangler's config without {@code main}):
 * the assets then answer every public request, misses included, as Cloudflare's router does when
 * {@code has_user_worker} is false; the manifest says {@code "has_user_worker": false} only then.
 */
public record AssetsConfig(String htmlHandling, String notFoundHandling, boolean runWorkerFirst,
                           List<String> runWorkerFirstRoutes, String manifest, boolean hasUserWorker) {
    private static final java.util.regex.Pattern HEX64 = java.util.regex.Pattern.compile("[0-9a-f]{64}");
    public static final Set<String> HTML_HANDLING = Set.of("auto-trailing-slash", "force-trailing-slash", "drop-trailing-slash", "none");
    public static final Set<String> NOT_FOUND_HANDLING = Set.of("single-page-application", "404-page", "none");

    public AssetsConfig {
        check(htmlHandling, HTML_HANDLING, "html_handling");
        check(notFoundHandling, NOT_FOUND_HANDLING, "not_found_handling");
        runWorkerFirstRoutes = List.copyOf(runWorkerFirstRoutes);
        if (manifest == null || !HEX64.matcher(manifest).matches()) {
            throw new IllegalArgumentException("assets.manifest must be the 64-hex-digit SHA-256 of the asset manifest (got " + manifest + ")");
        }
        if (runWorkerFirst && !runWorkerFirstRoutes.isEmpty()) {
            throw new IllegalArgumentException("assets.run_worker_first is either true/false or a list of routes");
        }
        if (!hasUserWorker && (runWorkerFirst || !runWorkerFirstRoutes.isEmpty())) {
            throw new IllegalArgumentException("assets.run_worker_first needs a Worker, and this deployment has none (assets only)");
        }
    }

    /** The assets of a deployment with a Worker. */
    public AssetsConfig(String htmlHandling, String notFoundHandling, boolean runWorkerFirst, List<String> runWorkerFirstRoutes,
                        String manifest) {
        this(htmlHandling, notFoundHandling, runWorkerFirst, runWorkerFirstRoutes, manifest, true);
    }

    private static void check(String value, Set<String> allowed, String field) {
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException("assets." + field + " must be one of " + new java.util.TreeSet<>(allowed)
                    + " (got '" + value + "')");
        }
    }

    public JsonObject toJson() {
        JsonObject o = new JsonObject().put("html_handling", htmlHandling).put("not_found_handling", notFoundHandling)
                .put("run_worker_first", runWorkerFirstRoutes.isEmpty() ? (Object) runWorkerFirst : new JsonArray(runWorkerFirstRoutes))
                .put("manifest", manifest);
        if (!hasUserWorker) {
            o.put("has_user_worker", false);
        }
        return o;
    }

    public static AssetsConfig decode(Object value) {
        StrictJson f = StrictJson.of(value, "assets").only(Set.of("html_handling", "not_found_handling", "run_worker_first", "manifest",
                "has_user_worker"));
        Object rwf = f.raw("run_worker_first");
        boolean first = rwf instanceof Boolean b && b;
        List<String> routes = rwf instanceof JsonArray ? f.texts("run_worker_first") : List.of();
        if (rwf != null && !(rwf instanceof Boolean) && !(rwf instanceof JsonArray)) {
            throw new IllegalArgumentException("assets: field 'run_worker_first' must be true, false or an array of routes, got " + rwf);
        }
        Object worker = f.raw("has_user_worker");
        if (worker != null && !(worker instanceof Boolean)) {
            throw new IllegalArgumentException("assets: field 'has_user_worker' must be true or false, got " + worker);
        }
        return new AssetsConfig(f.text("html_handling"), f.text("not_found_handling"), first, routes, f.text("manifest"),
                !Boolean.FALSE.equals(worker));
    }
}
