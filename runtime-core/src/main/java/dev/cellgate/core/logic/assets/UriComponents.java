package dev.cellgate.core.logic.assets;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * JavaScript's {@code encodeURIComponent}/{@code decodeURIComponent} and the asset router's
 * per-segment path coding built on them. Cloudflare's asset routing compares a request's pathname
 * with the re-encoded form of the path it resolved: a request whose pathname is not in that form
 * ({@code /%7Efoo}, {@code /@scope}) is redirected to it, so the coding must be exactly JavaScript's.
 */
public final class UriComponents {
    /** The characters encodeURIComponent leaves as they are (ECMA-262 uriUnreserved). */
    private static final String UNRESERVED = "-_.!~*'()";

    private UriComponents() {
    }

    /** {@code encodeURIComponent}; null where JavaScript throws a URIError (a lone surrogate). */
    public static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || UNRESERVED.indexOf(c) >= 0)) {
                out.append(c);
                continue;
            }
            int cp;
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return null;
                }
                cp = Character.toCodePoint(c, s.charAt(++i));
            } else if (Character.isLowSurrogate(c)) {
                return null;
            } else {
                cp = c;
            }
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return out.toString();
    }

    /** {@code decodeURIComponent}; null where JavaScript throws a URIError (bad escape or bad UTF-8). */
    public static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            bytes.reset();
            while (i < s.length() && s.charAt(i) == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 3;
            }
            String decoded = strictUtf8(bytes.toByteArray());
            if (decoded == null) {
                return null;
            }
            out.append(decoded);
        }
        return out.toString();
    }

    private static String strictUtf8(byte[] b) {
        try {
            CharBuffer cb = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return cb.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Each segment decoded (a segment that does not decode stays as it is), then runs of slashes made one. */
    public static String decodePath(String pathname) {
        String[] parts = pathname.split("/", -1);
        StringBuilder out = new StringBuilder(pathname.length());
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append('/');
            }
            String d = decode(parts[i]);
            out.append(d == null ? parts[i] : d);
        }
        return out.toString().replaceAll("/+", "/");
    }

    /** Each segment encoded with encodeURIComponent (a segment that cannot be stays as it is). */
    public static String encodePath(String pathname) {
        String[] parts = pathname.split("/", -1);
        StringBuilder out = new StringBuilder(pathname.length() + 8);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append('/');
            }
            String e = encode(parts[i]);
            out.append(e == null ? parts[i] : e);
        }
        return out.toString();
    }
}
