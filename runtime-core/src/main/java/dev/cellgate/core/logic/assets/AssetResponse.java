package dev.cellgate.core.logic.assets;

import java.util.Locale;
import java.util.Map;

/**
 * What the asset router answers: a status, the headers it sets (lower-case names, in order), and
 * the file whose bytes are the body ({@code body} null: no body; {@code file} names the file the
 * answer is about, also for a 304), and the part of those bytes served ({@link ByteRange#WHOLE}
 * but for a 206).
 */
public record AssetResponse(int status, Map<String, String> headers, AssetEntry body, String file, ByteRange range) {
    public AssetResponse {
        headers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
    }

    public AssetResponse(int status, Map<String, String> headers, AssetEntry body, String file) {
        this(status, headers, body, file, ByteRange.WHOLE);
    }

    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }
}
