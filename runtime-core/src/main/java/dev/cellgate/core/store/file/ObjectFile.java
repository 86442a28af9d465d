package dev.cellgate.core.store.file;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * On-disk form of one object: a one-line header carrying the opaque version, then the bytes.
 * <pre>CGOBJ1 &lt;version&gt;\n&lt;bytes&gt;</pre>
 * The version lives inside the file so that replacing the file (an atomic rename) replaces
 * bytes and version together.
 */
final class ObjectFile {
    private static final byte[] MAGIC = "CGOBJ1 ".getBytes(StandardCharsets.US_ASCII);

    private ObjectFile() {
    }

    static byte[] encode(String version, byte[] bytes) {
        byte[] v = version.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[MAGIC.length + v.length + 1 + bytes.length];
        System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
        System.arraycopy(v, 0, out, MAGIC.length, v.length);
        out[MAGIC.length + v.length] = '\n';
        System.arraycopy(bytes, 0, out, MAGIC.length + v.length + 1, bytes.length);
        return out;
    }

    /** Returns {version, bytes}; throws when the file is not an object file. */
    static Decoded decode(byte[] raw, String keyForMessage) {
        if (raw.length < MAGIC.length + 2 || !Arrays.equals(raw, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new IllegalStateException("object file for key '" + keyForMessage + "' has no CGOBJ1 header (written by something else?)");
        }
        int nl = -1;
        for (int i = MAGIC.length; i < Math.min(raw.length, MAX_HEADER); i++) {
            if (raw[i] == '\n') {
                nl = i;
                break;
            }
        }
        if (nl < 0) {
            throw new IllegalStateException("object file for key '" + keyForMessage + "' has a malformed header");
        }
        String version = new String(raw, MAGIC.length, nl - MAGIC.length, StandardCharsets.US_ASCII);
        return new Decoded(version, Arrays.copyOfRange(raw, nl + 1, raw.length));
    }

    /** Longest header: magic, a version of at most 120 characters, the newline. */
    static final int MAX_HEADER = 128;

    record Decoded(String version, byte[] bytes) {
    }
}
