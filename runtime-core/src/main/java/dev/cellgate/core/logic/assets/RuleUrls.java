package dev.cellgate.core.logic.assets;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How {@code _headers} and {@code _redirects} read a URL token, as Wrangler's parsers do: an
 * absolute {@code https://host/path} (only https), or a path beginning with a slash, normalised as
 * a URL parser would (dot segments resolved, unsafe characters percent-encoded).
 */
final class RuleUrls {
    private static final Pattern ABSOLUTE = Pattern.compile("^https://+(?<host>[^/]+)/?(?<path>.*)", Pattern.DOTALL);
    private static final Pattern WITH_PORT = Pattern.compile(".*:\\d+$");

    /** A token read, or why it was not. */
    record Read(String url, String error) {
        static Read ok(String url) {
            return new Read(url, null);
        }

        static Read fail(String error) {
            return new Read(null, error);
        }
    }

    private RuleUrls() {
    }

    static Read read(String token, boolean onlyRelative, boolean disallowPorts, boolean keepSearch, boolean keepHash) {
        Matcher m = ABSOLUTE.matcher(token);
        if (m.matches() && !m.group("host").isEmpty()) {
            if (onlyRelative) {
                return Read.fail("only relative URLs are allowed here (got the absolute URL " + token + ")");
            }
            if (disallowPorts && WITH_PORT.matcher(m.group("host")).matches()) {
                return Read.fail("a port is not allowed here (got " + token + ")");
            }
            return Read.ok("https://" + m.group("host") + pathOf(m.group("path"), keepSearch, keepHash));
        }
        String t = token;
        if (!t.startsWith("/") && onlyRelative) {
            t = "/" + t;
        }
        if (t.startsWith("/")) {
            return Read.ok(pathOf(t, keepSearch, keepHash));
        }
        return Read.fail(onlyRelative ? "URLs must begin with a forward slash (got " + token + ")"
                : "URLs must be relative (begin with a forward slash) or use https:// (got " + token + ")");
    }

    static boolean hasHost(String url) {
        Matcher m = ABSOLUTE.matcher(url);
        return m.matches() && !m.group("host").isEmpty();
    }

    /** The pathname (and, when kept, the search and hash) of a path as a URL parser normalises it. */
    static String pathOf(String path, boolean keepSearch, boolean keepHash) {
        String p = path.startsWith("/") ? path : "/" + path;
        String hash = "";
        int h = p.indexOf('#');
        if (h >= 0) {
            hash = p.substring(h);
            p = p.substring(0, h);
        }
        String search = "";
        int q = p.indexOf('?');
        if (q >= 0) {
            search = p.substring(q);
            p = p.substring(0, q);
        }
        String out = UrlPaths.pathname(p);
        if (keepSearch && search.length() > 1) {
            out += escape(search, " \"#<>");
        }
        if (keepHash && hash.length() > 1) {
            out += escape(hash, " \"<>`");
        }
        return out;
    }

    private static String escape(String s, String unsafe) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0x20 && c < 0x7F && (unsafe.indexOf(c) < 0 || i == 0)) {
                sb.append(c);
                continue;
            }
            for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return sb.toString();
    }
}
