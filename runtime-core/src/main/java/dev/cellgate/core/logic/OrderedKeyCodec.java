package dev.cellgate.core.logic;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Turns a binding's key (any UTF-8 string: a KV key, an R2 object name) into a bucket key suffix
 * that every bucket store accepts and that lists in the same order and with the same prefixes as
 * the raw keys, so that a KV {@code list} or an R2 {@code list} is one bucket listing.
 *
 * <p>The bytes are written in base32 with the "extended hex" alphabet of RFC 4648 ({@code 0-9A-V},
 * unpadded), whose byte order is the order of the bits encoded; every {@value #SEGMENT} characters
 * a {@code /} (so no path segment of a directory-backed store exceeds its file name limit; every
 * key has its {@code /} at the same places, so they never decide an order), and a final {@code -},
 * which sorts below both the alphabet and {@code /}: a key that is a prefix of another sorts first,
 * and no encoded key is the directory of another one's file.
 */
public final class OrderedKeyCodec {
    static final int SEGMENT = 200;
    private static final char[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUV".toCharArray();
    private static final char END = '-';

    private OrderedKeyCodec() {
    }

    /** The bucket key suffix of {@code key}. */
    public static String encode(String key) {
        StringBuilder sb = new StringBuilder(chars(key.getBytes(StandardCharsets.UTF_8)));
        return segmented(sb) + END;
    }

    /**
     * The longest bucket prefix shared by the encodings of every key that starts with
     * {@code prefix}; the listing must still filter the decoded keys by the raw prefix (the last
     * character of a partial 5-bit group differs among them).
     */
    public static String listPrefix(String prefix) {
        byte[] b = prefix.getBytes(StandardCharsets.UTF_8);
        String full = chars(b);
        int complete = (b.length * 8) / 5; // characters whose five bits are all the prefix's
        return segmented(new StringBuilder(full.substring(0, complete)));
    }

    /** The key an {@link #encode encoded} suffix stands for. */
    public static String decode(String encoded) {
        if (encoded.isEmpty() || encoded.charAt(encoded.length() - 1) != END) {
            throw new IllegalArgumentException("not an encoded key: " + encoded);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < encoded.length() - 1; i++) {
            char c = encoded.charAt(i);
            if (c == '/') {
                continue;
            }
            int v = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'V' ? c - 'A' + 10 : -1;
            if (v < 0) {
                throw new IllegalArgumentException("not an encoded key: " + encoded);
            }
            buffer = (buffer << 5) | v;
            bits += 5;
            if (bits >= 8) {
                out.write((buffer >> (bits - 8)) & 0xff);
                bits -= 8;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String chars(byte[] b) {
        StringBuilder sb = new StringBuilder((b.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte x : b) {
            buffer = (buffer << 8) | (x & 0xff);
            bits += 8;
            while (bits >= 5) {
                sb.append(ALPHABET[(buffer >> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            sb.append(ALPHABET[(buffer << (5 - bits)) & 31]);
        }
        return sb.toString();
    }

    private static String segmented(StringBuilder chars) {
        for (int i = SEGMENT; i < chars.length(); i += SEGMENT + 1) {
            chars.insert(i, '/');
        }
        return chars.toString();
    }
}
