package dev.cellgate.deploy.wrangler;

/**
 * JSON with comments (wrangler.jsonc): strips {@code //} and {@code /* *\/} comments and trailing
 * commas outside strings, leaving positions of everything else intact for error messages.
 */
public final class Jsonc {
    private Jsonc() {
    }

    public static String strip(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '"') {
                int start = i++;
                while (i < n && src.charAt(i) != '"') {
                    i += src.charAt(i) == '\\' ? 2 : 1;
                }
                i = Math.min(n, i + 1);
                out.append(src, start, i);
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated /* comment");
                }
                for (; i < end + 2; i++) {
                    out.append(src.charAt(i) == '\n' ? '\n' : ' ');
                }
            } else if (c == ',') {
                int j = i + 1;
                while (j < n && Character.isWhitespace(src.charAt(j))) {
                    j++;
                }
                out.append(j < n && (src.charAt(j) == '}' || src.charAt(j) == ']') ? ' ' : ',');
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
