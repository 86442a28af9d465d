package dev.cellgate.js.graal.host.html;

/**
 * The WHATWG UTF-8 decoder, streaming: a character cut by a chunk boundary is completed by the next
 * piece, and malformed bytes become U+FFFD as the Encoding standard (and encoding_rs, which lol-html
 * uses) replaces them — so the text handlers see what workerd's see. {@code java.nio}'s decoder keeps
 * its leftovers in the caller's buffer and replaces by different rules, hence this small class.
 */
final class Utf8Stream {
    private int needed;
    private int seen;
    private int codePoint;
    private int lower = 0x80;
    private int upper = 0xBF;

    boolean pending() {
        return needed != 0;
    }

    String decode(byte[] b, int start, int end) {
        StringBuilder out = new StringBuilder(end - start);
        int i = start;
        while (i < end) {
            int c = b[i] & 0xff;
            if (needed == 0) {
                i++;
                if (c < 0x80) {
                    out.append((char) c);
                } else if (c >= 0xC2 && c <= 0xDF) {
                    needed = 1;
                    codePoint = c & 0x1F;
                } else if (c >= 0xE0 && c <= 0xEF) {
                    if (c == 0xE0) {
                        lower = 0xA0;
                    } else if (c == 0xED) {
                        upper = 0x9F;
                    }
                    needed = 2;
                    codePoint = c & 0xF;
                } else if (c >= 0xF0 && c <= 0xF4) {
                    if (c == 0xF0) {
                        lower = 0x90;
                    } else if (c == 0xF4) {
                        upper = 0x8F;
                    }
                    needed = 3;
                    codePoint = c & 0x7;
                } else {
                    out.append('\uFFFD');
                }
                continue;
            }
            if (c < lower || c > upper) {
                reset();
                out.append('\uFFFD'); // the byte is reprocessed as a new sequence
                continue;
            }
            i++;
            lower = 0x80;
            upper = 0xBF;
            codePoint = (codePoint << 6) | (c & 0x3F);
            if (++seen == needed) {
                out.appendCodePoint(codePoint);
                reset();
            }
        }
        return out.toString();
    }

    /** The end of the text: an unfinished character is U+FFFD. */
    String finish() {
        if (needed != 0) {
            reset();
            return "\uFFFD";
        }
        return "";
    }

    private void reset() {
        needed = 0;
        seen = 0;
        codePoint = 0;
        lower = 0x80;
        upper = 0xBF;
    }
}
