package dev.cellgate.core.logic.assets;

import java.util.Map;

/**
 * What the asset router answers: a status, the headers it sets, and the file whose bytes are the
 * body ({@code null}: no body). {@code location} is set for a redirect.
 */
public record AssetResponse(int status, Map<String, String> headers, AssetEntry body, String file) {
    public AssetResponse {
        headers = Map.copyOf(headers);
    }

    static AssetResponse empty(int status) {
        return new AssetResponse(status, Map.of(), null, null);
    }

    public String header(String name) {
        return headers.get(name);
    }
}
