package dev.cellgate.store.gcs.emulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Parses a {@code multipart/related} body (the GCS multipart upload: JSON metadata, then the bytes). */
final class Multipart {
    record Part(String contentType, byte[] body) {
    }

    private Multipart() {
    }

    static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/related")) {
            throw new IllegalArgumentException("multipart upload needs Content-Type multipart/related, got " + contentType);
        }
        for (String p : contentType.split(";")) {
            String t = p.trim();
            if (t.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String b = t.substring("boundary=".length());
                return b.startsWith("\"") && b.endsWith("\"") ? b.substring(1, b.length() - 1) : b;
            }
        }
        throw new IllegalArgumentException("multipart Content-Type without boundary: " + contentType);
    }

    static List<Part> parse(byte[] body, String boundary) {
        byte[] delim = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        List<Part> parts = new ArrayList<>();
        int pos = indexOf(body, delim, 0);
        if (pos < 0) {
            throw new IllegalArgumentException("multipart body has no boundary --" + boundary);
        }
        while (true) {
            int afterDelim = pos + delim.length;
            if (afterDelim + 1 < body.length && body[afterDelim] == '-' && body[afterDelim + 1] == '-') {
                return parts; // closing delimiter
            }
            int headersStart = skipCrlf(body, afterDelim);
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), headersStart);
            if (headersEnd < 0) {
                throw new IllegalArgumentException("multipart part without a header/body separator");
            }
            String headers = new String(body, headersStart, headersEnd - headersStart, StandardCharsets.ISO_8859_1);
            int dataStart = headersEnd + 4;
            int next = indexOf(body, delim, dataStart);
            if (next < 0) {
                throw new IllegalArgumentException("multipart part is not terminated by its boundary");
            }
            int dataEnd = next;
            if (dataEnd >= 2 && body[dataEnd - 2] == '\r' && body[dataEnd - 1] == '\n') {
                dataEnd -= 2; // the CRLF before a delimiter belongs to the delimiter
            }
            parts.add(new Part(header(headers, "content-type"), Arrays.copyOfRange(body, dataStart, Math.max(dataStart, dataEnd))));
            pos = next;
        }
    }

    private static String header(String headers, String name) {
        for (String line : headers.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private static int skipCrlf(byte[] b, int i) {
        return i + 1 < b.length && b[i] == '\r' && b[i + 1] == '\n' ? i + 2 : i;
    }

    static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
