package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.deploy.bindings.AssetsConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Wrangler's {@code assets} key: {@code directory} (required, relative to the config),
 * {@code binding} (the optional {@code env} name of the fetcher), {@code html_handling} (default
 * {@code auto-trailing-slash}), {@code not_found_handling} (default {@code none}) and
 * {@code run_worker_first} ({@code true}/{@code false} or a list of route patterns, {@code !} to
 * exclude). Any other sub-key is refused by name.
 */
public record AssetsKey(String directory, String binding, String htmlHandling, String notFoundHandling,
                        boolean runWorkerFirst, List<String> runWorkerFirstRoutes) {
    static final Set<String> KEYS = Set.of("directory", "binding", "html_handling", "not_found_handling", "run_worker_first");

    public AssetsKey {
        runWorkerFirstRoutes = List.copyOf(runWorkerFirstRoutes);
    }

    static AssetsKey parse(Object value, String where) {
        if (!(value instanceof JsonObject o)) {
            throw new IllegalArgumentException(where + ": \"assets\" must be an object");
        }
        for (String k : o.fieldNames()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(where + ": assets key \"" + k + "\" is not supported by cellgate (supported: "
                        + String.join(", ", new java.util.TreeSet<>(KEYS)) + ")");
            }
        }
        String dir = text(o, "directory", where);
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException(where + ": assets.directory is required (the folder of files to serve)");
        }
        String html = text(o, "html_handling", where);
        String nf = text(o, "not_found_handling", where);
        html = html == null ? "auto-trailing-slash" : html;
        nf = nf == null ? "none" : nf;
        check(html, AssetsConfig.HTML_HANDLING, "html_handling", where);
        check(nf, AssetsConfig.NOT_FOUND_HANDLING, "not_found_handling", where);
        Object rwf = o.getValue("run_worker_first");
        List<String> routes = new ArrayList<>();
        if (rwf instanceof JsonArray a) {
            for (Object r : a) {
                if (!(r instanceof String s) || !(s.startsWith("/") || s.startsWith("!/"))) {
                    throw new IllegalArgumentException(where + ": each of assets.run_worker_first must be a route beginning with / or !/ (got " + r + ")");
                }
                routes.add(s);
            }
        } else if (rwf != null && !(rwf instanceof Boolean)) {
            throw new IllegalArgumentException(where + ": assets.run_worker_first must be true, false or an array of routes");
        }
        return new AssetsKey(dir, text(o, "binding", where), html, nf, Boolean.TRUE.equals(rwf), routes);
    }

    /**
     * The manifest's form, once the push has stored the asset manifest with digest {@code manifest};
     * {@code hasUserWorker} is false for an assets-only project.
     */
    public AssetsConfig toConfig(String manifest, boolean hasUserWorker) {
        return new AssetsConfig(htmlHandling, notFoundHandling, runWorkerFirst, runWorkerFirstRoutes, manifest, hasUserWorker);
    }

    private static void check(String value, Set<String> allowed, String field, String where) {
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException(where + ": assets." + field + " must be one of " + new java.util.TreeSet<>(allowed)
                    + " (got '" + value + "')");
        }
    }

    private static String text(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException(where + ": assets." + key + " must be a string");
        }
        return (String) v;
    }
}
