package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.host.crypto.Hmacs;
import dev.cellgate.js.graal.host.crypto.KeyDerivation;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.Mac;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * The JDK behind the hot paths of the {@code node:} modules (nodejs_compat): hashes and HMACs
 * ({@link MessageDigest}, {@link Mac}), PBKDF2 and HKDF over {@link Mac} (the same code as
 * crypto.subtle's, {@link KeyDerivation}), and zlib's one-shot
 * functions over {@link Deflater}/{@link Inflater} — the JDK bundles zlib itself, so the bytes
 * equal workerd's (which also uses zlib). Arguments arrive validated by the JavaScript side
 * ({@code cellgate/node}); a failure a user can cause (corrupt deflate data) comes back as a
 * String message, not a Java exception, so JavaScript throws it as Node would.
 */
public final class NodeHost {
    static final int ZLIB = 0;
    static final int RAW = 1;
    static final int GZIP = 2;
    /** inflate only: zlib or gzip, whichever the header says ({@code unzip}). */
    static final int AUTO = 3;

    // ---- hashes ----

    /** {@code algorithm} is a JCA name (MD5, SHA-1, SHA-256…), mapped from Node's by the JavaScript side. */
    @HostAccess.Export
    public ByteBuffer digest(String algorithm, Value data, int offset, int length) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance(algorithm).digest(HostBridge.bytes(data, offset, length)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("digest " + algorithm + ": " + e.getMessage(), e);
        }
    }

    /** {@code macAlgorithm} is a JCA Mac name (HmacSHA256…). */
    @HostAccess.Export
    public ByteBuffer hmac(String macAlgorithm, Value key, int keyOffset, int keyLength, Value data, int offset, int length) {
        Mac mac = Hmacs.jcaMac(macAlgorithm, HostBridge.bytes(key, keyOffset, keyLength));
        return ByteBuffer.wrap(mac.doFinal(HostBridge.bytes(data, offset, length)));
    }

    /** PBKDF2 (RFC 8018) over HMAC-{@code macAlgorithm}; the password is bytes, not characters, as in Node. */
    @HostAccess.Export
    public ByteBuffer pbkdf2(String macAlgorithm, Value password, int pOffset, int pLength, Value salt, int sOffset, int sLength,
                             int iterations, int keyLength) {
        return ByteBuffer.wrap(KeyDerivation.pbkdf2Jca(macAlgorithm, HostBridge.bytes(password, pOffset, pLength),
                HostBridge.bytes(salt, sOffset, sLength), iterations, keyLength));
    }

    /** HKDF (RFC 5869): extract with {@code salt}, expand with {@code info} to {@code keyLength} bytes. */
    @HostAccess.Export
    public ByteBuffer hkdf(String macAlgorithm, Value ikm, int iOffset, int iLength, Value salt, int sOffset, int sLength,
                           Value info, int nOffset, int nLength, int keyLength) {
        return ByteBuffer.wrap(KeyDerivation.hkdfJca(macAlgorithm, HostBridge.bytes(ikm, iOffset, iLength),
                HostBridge.bytes(salt, sOffset, sLength), HostBridge.bytes(info, nOffset, nLength), keyLength));
    }

    // ---- zlib ----

    @HostAccess.Export
    public double crc32(Value data, int offset, int length, double initial) {
        CRC32 crc = new CRC32();
        byte[] b = HostBridge.bytes(data, offset, length);
        if (initial == 0) {
            crc.update(b);
            return crc.getValue();
        }
        return Crc32Combine.continueFrom((long) initial, b);
    }

    /**
     * Compresses in one go. {@code mode} is {@link #ZLIB}, {@link #RAW} or {@link #GZIP}; the gzip
     * header is zlib's own (mtime 0, OS 3 = Unix), so the output equals Node's byte for byte.
     */
    @HostAccess.Export
    public ByteBuffer deflate(int mode, int level, int strategy, Value dict, int dOffset, int dLength, Value data, int offset, int length) {
        byte[] in = HostBridge.bytes(data, offset, length);
        Deflater d = new Deflater(level, mode != ZLIB);
        try {
            d.setStrategy(strategy);
            if (dLength > 0) {
                d.setDictionary(HostBridge.bytes(dict, dOffset, dLength));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, in.length / 2));
            if (mode == GZIP) {
                int xfl = level == 9 ? 2 : (strategy >= 2 || (level >= 0 && level < 2)) ? 4 : 0;
                out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) xfl, 3}, 0, 10);
            }
            d.setInput(in);
            d.finish();
            byte[] buf = new byte[8192];
            while (!d.finished()) {
                int n = d.deflate(buf);
                out.write(buf, 0, n);
            }
            if (mode == GZIP) {
                CRC32 crc = new CRC32();
                crc.update(in);
                writeLe32(out, crc.getValue());
                writeLe32(out, in.length);
            }
            return ByteBuffer.wrap(out.toByteArray());
        } finally {
            d.end();
        }
    }

    /**
     * Decompresses in one go; returns the bytes, or a String {@code "<zlib code>:<message>"} naming
     * zlib's error (Z_DATA_ERROR, Z_BUF_ERROR, Z_NEED_DICT) as Node reports it.
     */
    @HostAccess.Export
    public Object inflate(int mode, Value dict, int dOffset, int dLength, Value data, int offset, int length) {
        byte[] in = HostBridge.bytes(data, offset, length);
        byte[] dictionary = dLength > 0 ? HostBridge.bytes(dict, dOffset, dLength) : null;
        int m = mode == AUTO ? (in.length >= 2 && (in[0] & 0xff) == 0x1f && (in[1] & 0xff) == 0x8b ? GZIP : ZLIB) : mode;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, in.length * 3));
            if (m != GZIP) {
                int used = inflateMember(in, 0, m == RAW, dictionary, out);
                return used < 0 ? error(used) : ByteBuffer.wrap(out.toByteArray());
            }
            int pos = 0;
            do {
                int start = out.size();
                int header = gzipHeader(in, pos);
                if (header < 0) {
                    return error(header);
                }
                int used = inflateMember(in, header, true, dictionary, out);
                if (used < 0) {
                    return error(used);
                }
                int end = header + used;
                if (end + 8 > in.length) {
                    return error(TRUNCATED);
                }
                CRC32 crc = new CRC32();
                byte[] all = out.toByteArray();
                crc.update(all, start, all.length - start);
                if (readLe32(in, end) != crc.getValue()) {
                    return "Z_DATA_ERROR:incorrect data check";
                }
                if (readLe32(in, end + 4) != ((all.length - start) & 0xffffffffL)) {
                    return "Z_DATA_ERROR:incorrect length check";
                }
                pos = end + 8;
                // Node reads further gzip members; trailing bytes that are not one are ignored.
            } while (pos + 1 < in.length && (in[pos] & 0xff) == 0x1f && (in[pos + 1] & 0xff) == 0x8b);
            return ByteBuffer.wrap(out.toByteArray());
        } catch (DataFormatException e) {
            return "Z_DATA_ERROR:" + e.getMessage();
        }
    }

    private static final int TRUNCATED = -1;
    private static final int BAD_HEADER = -2;
    private static final int NEED_DICT = -3;

    private static String error(int code) {
        return switch (code) {
            case BAD_HEADER -> "Z_DATA_ERROR:incorrect header check";
            case NEED_DICT -> "Z_NEED_DICT:Missing dictionary";
            default -> "Z_BUF_ERROR:unexpected end of file";
        };
    }

    /** Inflates one stream from {@code from}; returns the input bytes it used, or a negative error. */
    private static int inflateMember(byte[] in, int from, boolean raw, byte[] dictionary, ByteArrayOutputStream out)
            throws DataFormatException {
        Inflater inf = new Inflater(raw);
        try {
            inf.setInput(in, from, in.length - from);
            if (raw && dictionary != null) {
                inf.setDictionary(dictionary);
            }
            byte[] buf = new byte[8192];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                out.write(buf, 0, n);
                if (n == 0) {
                    if (inf.needsDictionary()) {
                        if (dictionary == null) {
                            return NEED_DICT;
                        }
                        inf.setDictionary(dictionary);
                    } else if (inf.needsInput()) {
                        return TRUNCATED;
                    }
                }
            }
            return (int) inf.getBytesRead();
        } finally {
            inf.end();
        }
    }

    /** The offset of the deflate data after a gzip header at {@code pos}, or a negative error. */
    private static int gzipHeader(byte[] in, int pos) {
        if (in.length - pos < 10) {
            return in.length - pos >= 2 && ((in[pos] & 0xff) != 0x1f || (in[pos + 1] & 0xff) != 0x8b) ? BAD_HEADER : TRUNCATED;
        }
        if ((in[pos] & 0xff) != 0x1f || (in[pos + 1] & 0xff) != 0x8b || in[pos + 2] != 8) {
            return BAD_HEADER;
        }
        int flags = in[pos + 3] & 0xff;
        int p = pos + 10;
        if ((flags & 4) != 0) {
            if (p + 2 > in.length) {
                return TRUNCATED;
            }
            p += 2 + ((in[p] & 0xff) | (in[p + 1] & 0xff) << 8);
        }
        for (int bit : new int[] {8, 16}) {
            if ((flags & bit) != 0) {
                while (p < in.length && in[p] != 0) {
                    p++;
                }
                p++;
            }
        }
        if ((flags & 2) != 0) {
            p += 2;
        }
        return p > in.length ? TRUNCATED : p;
    }

    private static void writeLe32(ByteArrayOutputStream out, long v) {
        out.write((int) v & 0xff);
        out.write((int) (v >>> 8) & 0xff);
        out.write((int) (v >>> 16) & 0xff);
        out.write((int) (v >>> 24) & 0xff);
    }

    private static long readLe32(byte[] b, int p) {
        return (b[p] & 0xffL) | (b[p + 1] & 0xffL) << 8 | (b[p + 2] & 0xffL) << 16 | (b[p + 3] & 0xffL) << 24;
    }

    /** CRC-32 continued from a previous value, as {@code zlib.crc32(data, value)} does. */
    static final class Crc32Combine {
        private static final int[] TABLE = new int[256];

        static {
            for (int n = 0; n < 256; n++) {
                int c = n;
                for (int k = 0; k < 8; k++) {
                    c = (c & 1) != 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
                }
                TABLE[n] = c;
            }
        }

        private Crc32Combine() {
        }

        static long continueFrom(long previous, byte[] data) {
            int c = ~(int) previous;
            for (byte b : data) {
                c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
            }
            return ~c & 0xffffffffL;
        }
    }
}
