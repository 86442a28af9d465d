package dev.cellgate.js.graal.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Header lists cross the Java/JavaScript boundary as one string, {@code name:value} entries joined
 * by {@code \n}: one string is far cheaper to pass than a list of pairs, and it cannot be
 * ambiguous because a header name never contains {@code :} and neither a name nor a value may
 * contain a newline (the Headers class and the HTTP layer both refuse them).
 */
public final class HeaderLines {
    private HeaderLines() {
    }

    public static String encode(List<Map.Entry<String, String>> headers) {
        if (headers.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(headers.size() * 32);
        for (Map.Entry<String, String> h : headers) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(h.getKey()).append(':').append(h.getValue());
        }
        return sb.toString();
    }

    public static List<Map.Entry<String, String>> decode(String lines) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        if (lines == null || lines.isEmpty()) {
            return out;
        }
        int start = 0;
        int len = lines.length();
        while (start <= len) {
            int end = lines.indexOf('\n', start);
            if (end < 0) {
                end = len;
            }
            int colon = lines.indexOf(':', start);
            if (colon < 0 || colon > end) {
                throw new IllegalArgumentException("malformed header line: " + lines.substring(start, end));
            }
            out.add(Map.entry(lines.substring(start, colon), lines.substring(colon + 1, end)));
            start = end + 1;
        }
        return out;
    }
}
