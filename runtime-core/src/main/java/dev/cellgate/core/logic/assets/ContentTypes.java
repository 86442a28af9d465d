package dev.cellgate.core.logic.assets;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Type} an uploaded file is served with, by extension, as Wrangler assigns it
 * (observed on miniflare 4.20260730.0 for each extension here): {@code text/*} types carry
 * {@code ; charset=utf-8}; an extension not listed gets no type at all (the response then has no
 * Content-Type, as on Cloudflare for a file Wrangler finds no type for).
 */
public final class ContentTypes {
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("css", "text/css"),
            Map.entry("js", "text/javascript"), Map.entry("mjs", "text/javascript"), Map.entry("jsx", "text/jsx"),
            Map.entry("cjs", "application/node"), Map.entry("json", "application/json"), Map.entry("map", "application/json"),
            Map.entry("txt", "text/plain"), Map.entry("md", "text/markdown"), Map.entry("csv", "text/csv"),
            Map.entry("yaml", "text/yaml"), Map.entry("yml", "text/yaml"), Map.entry("toml", "application/toml"),
            Map.entry("xml", "application/xml"), Map.entry("xhtml", "application/xhtml+xml"),
            Map.entry("webmanifest", "application/manifest+json"), Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("avif", "image/avif"),
            Map.entry("ico", "image/vnd.microsoft.icon"), Map.entry("wasm", "application/wasm"),
            Map.entry("woff", "font/woff"), Map.entry("woff2", "font/woff2"), Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"), Map.entry("pdf", "application/pdf"), Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"), Map.entry("tar", "application/x-tar"), Map.entry("mp4", "video/mp4"),
            Map.entry("webm", "video/webm"), Map.entry("ts", "video/mp2t"), Map.entry("mp3", "audio/mpeg"),
            Map.entry("wav", "audio/wav"), Map.entry("bin", "application/octet-stream"));

    private ContentTypes() {
    }

    /** @return the type for {@code pathname}'s extension, or null */
    public static String of(String pathname) {
        String name = pathname.substring(pathname.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            return null;
        }
        String type = BY_EXTENSION.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (type == null) {
            return null;
        }
        return type.startsWith("text/") ? type + "; charset=utf-8" : type;
    }
}
