package dev.cellgate.js.graal.host.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/** {@code crypto.subtle.digest} and {@code crypto.DigestStream}: the JDK's MessageDigest, and java.util.zip for the CRCs. */
final class Digests {
    private Digests() {
    }

    static byte[] digest(String hash, byte[] data) {
        return messageDigest(hash).digest(data);
    }

    /** An incremental digest for DigestStream; {@code name} is a normalized hash name or crc32/crc32c. */
    static Running start(String name) {
        return switch (name) {
            case "crc32" -> new Running(null, new CRC32());
            case "crc32c" -> new Running(null, new CRC32C());
            default -> new Running(messageDigest(name), null);
        };
    }

    private static MessageDigest messageDigest(String hash) {
        try {
            return MessageDigest.getInstance(Hashes.digest(hash));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no " + hash, e);
        }
    }

    /** One DigestStream's state; an opaque handle to JavaScript. */
    static final class Running {
        private final MessageDigest digest;
        private final Checksum crc;

        private Running(MessageDigest digest, Checksum crc) {
            this.digest = digest;
            this.crc = crc;
        }

        void update(byte[] b) {
            if (digest != null) {
                digest.update(b);
            } else {
                crc.update(b, 0, b.length);
            }
        }

        /** The digest; a CRC as 4 big-endian bytes, as workerd gives it. */
        byte[] finish() {
            if (digest != null) {
                return digest.digest();
            }
            long v = crc.getValue();
            return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        }
    }
}
