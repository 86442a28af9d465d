package dev.cellgate.core.logic.assets;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pathname a Worker sees as {@code new URL(request.url).pathname} for a raw request target:
 * the WHATWG URL parser's path state for an http(s) URL. Dot segments ({@code .}, {@code ..} and
 * their {@code %2e} spellings) are resolved, a backslash is a slash, and the characters of the
 * path percent-encode set (controls, space, {@code " # < > ? ` { }}, non-ASCII) are
 * percent-encoded as UTF-8; existing escapes are kept as they are. Asset routing matches rules and
 * files against this form, as Cloudflare's does.
 */
public final class UrlPaths {
    private UrlPaths() {
    }

    /** @param raw the path of a request target (without query), e.g. {@code /a/../b c} */
    public static String pathname(String raw) {
        String path = raw.isEmpty() ? "/" : raw.replace('\\', '/');
        if (path.charAt(0) != '/') {
            path = "/" + path;
        }
        String[] parts = path.substring(1).split("/", -1);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            String seg = parts[i];
            boolean last = i == parts.length - 1;
            String lower = seg.toLowerCase(Locale.ROOT);
            if (isDoubleDot(lower)) {
                if (!out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
                if (last) {
                    out.add("");
                }
            } else if (isSingleDot(lower)) {
                if (last) {
                    out.add("");
                }
            } else {
                out.add(encodeSegment(seg));
            }
        }
        return "/" + String.join("/", out);
    }

    private static boolean isSingleDot(String s) {
        return s.equals(".") || s.equals("%2e");
    }

    private static boolean isDoubleDot(String s) {
        return s.equals("..") || s.equals(".%2e") || s.equals("%2e.") || s.equals("%2e%2e");
    }

    private static String encodeSegment(String seg) {
        StringBuilder sb = null;
        for (int i = 0; i < seg.length(); i++) {
            char c = seg.charAt(i);
            if (c > 0x20 && c < 0x7F && "\"#<>?`{}".indexOf(c) < 0) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(seg.length() + 16).append(seg, 0, i);
            }
            int end = i + 1;
            if (Character.isHighSurrogate(c) && end < seg.length() && Character.isLowSurrogate(seg.charAt(end))) {
                end++;
            }
            for (byte b : seg.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
            i = end - 1;
        }
        return sb == null ? seg : sb.toString();
    }
}
