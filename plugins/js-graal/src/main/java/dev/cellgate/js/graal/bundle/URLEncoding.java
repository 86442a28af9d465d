package dev.cellgate.js.graal.bundle;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Makes an import specifier safe as one path segment, and back. */
final class URLEncoding {
    private URLEncoding() {
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
