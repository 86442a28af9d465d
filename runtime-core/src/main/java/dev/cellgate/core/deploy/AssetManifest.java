package dev.cellgate.core.deploy;

import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.logic.assets.AssetLookup;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deployment's static assets as the push stored them: each file's pathname ({@code /a/b.html})
 * with the digest of its bytes (the object {@code assets/<sha256>}), size and content type, and the
 * text of {@code _redirects} and {@code _headers} (empty when the directory had none). It is itself
 * stored content-addressed under {@code assets/<sha256 of this JSON>}, the digest the deployment
 * manifest names in {@code assets.manifest}: an unchanged directory pushes no new object at all.
 */
public record AssetManifest(Map<String, AssetEntry> files, String redirects, String headers) implements AssetLookup {
    public AssetManifest {
        files = Collections.unmodifiableMap(new TreeMap<>(files));
        redirects = redirects == null ? "" : redirects;
        headers = headers == null ? "" : headers;
    }

    @Override
    public AssetEntry get(String pathname) {
        return files.get(pathname);
    }

    /** Canonical bytes (sorted keys), so equal directories give equal digests. */
    public byte[] encode() {
        JsonObject f = new JsonObject();
        files.forEach((path, e) -> {
            JsonObject o = new JsonObject().put("sha256", e.sha256()).put("size", e.size());
            if (e.contentType() != null) {
                o.put("content_type", e.contentType());
            }
            f.put(path, o);
        });
        return new JsonObject().put("files", f).put("redirects", redirects).put("headers", headers).encode()
                .getBytes(StandardCharsets.UTF_8);
    }

    public static AssetManifest decode(byte[] bytes) {
        try {
            JsonObject o = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
            Map<String, AssetEntry> files = new TreeMap<>();
            o.getJsonObject("files").forEach(e -> {
                JsonObject f = (JsonObject) e.getValue();
                if (!e.getKey().startsWith("/")) {
                    throw new IllegalArgumentException("asset pathname must start with /: " + e.getKey());
                }
                files.put(e.getKey(), new AssetEntry(f.getString("sha256"), f.getLong("size"), f.getString("content_type")));
            });
            return new AssetManifest(files, o.getString("redirects"), o.getString("headers"));
        } catch (DecodeException | ClassCastException | NullPointerException | IllegalArgumentException e) {
            throw new MalformedManifestException("asset manifest is malformed: " + e.getMessage());
        }
    }
}
