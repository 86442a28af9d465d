package dev.cellgate.core.logic;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code Range} header of a request answered from the Workers cache, read as workerd's local
 * cache (miniflare) reads it: {@code bytes=a-b}, {@code a-}, {@code -n}, comma-separated. An
 * unsatisfiable or malformed range is a 416; a suffix at least as long as the body, or no range at
 * all after {@code bytes=}, is the whole body. Pure.
 */
public final class ByteRanges {
    private ByteRanges() {
    }

    /** One inclusive range. */
    public record Range(long start, long end) {
        public long length() {
            return end - start + 1;
        }
    }

    /** The ranges of {@code header} over {@code length} bytes: empty for the whole body, null for 416. */
    public static List<Range> parse(String header, long length) {
        String h = header;
        int i = 0;
        while (i < h.length() && h.charAt(i) == ' ') {
            i++;
        }
        if (!h.regionMatches(true, i, "bytes", 0, 5)) {
            return null;
        }
        i += 5;
        while (i < h.length() && h.charAt(i) == ' ') {
            i++;
        }
        if (i >= h.length() || h.charAt(i) != '=') {
            return null;
        }
        String rest = h.substring(i + 1);
        List<Range> out = new ArrayList<>();
        if (rest.isBlank()) {
            return out;
        }
        for (String part : rest.split(",", -1)) {
            String p = part.strip();
            int dash = p.indexOf('-');
            if (dash < 0) {
                return null;
            }
            String a = p.substring(0, dash).strip();
            String b = p.substring(dash + 1).strip();
            if (!digits(a) || !digits(b) || (a.isEmpty() && b.isEmpty())) {
                return null;
            }
            if (!a.isEmpty() && !b.isEmpty()) {
                long start = Long.parseLong(a);
                long end = Long.parseLong(b);
                if (start > end || start >= length) {
                    return null;
                }
                out.add(new Range(start, Math.min(end, length - 1)));
            } else if (!a.isEmpty()) {
                long start = Long.parseLong(a);
                if (start >= length) {
                    return null;
                }
                out.add(new Range(start, length - 1));
            } else {
                long suffix = Long.parseLong(b);
                if (suffix >= length) {
                    return new ArrayList<>();
                }
                if (suffix == 0) {
                    continue;
                }
                out.add(new Range(length - suffix, length - 1));
            }
        }
        return out;
    }

    private static boolean digits(String s) {
        if (s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
