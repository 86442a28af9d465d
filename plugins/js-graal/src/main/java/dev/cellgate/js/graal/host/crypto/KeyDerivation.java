package dev.cellgate.js.graal.host.crypto;

import java.io.ByteArrayOutputStream;
import javax.crypto.Mac;

/**
 * PBKDF2 (RFC 8018 §5.2) and HKDF (RFC 5869) computed from the JCA's HMAC. Not the JCA's own
 * KDFs: {@code SecretKeyFactory("PBKDF2WithHmac…")} takes the password as {@code char[]} and
 * re-encodes it as UTF-8, so the arbitrary password bytes WebCrypto allows cannot pass through it;
 * {@code javax.crypto.KDF} (HKDF) is JDK 25 API while this plugin is Java 21 bytecode.
 * {@code KeyDerivationTest} checks both against the JCA's PBKDF2 and the RFC test vectors.
 */
final class KeyDerivation {
    private KeyDerivation() {
    }

    static byte[] pbkdf2(String hash, byte[] password, byte[] salt, int iterations, int length) {
        Mac prf = Hmacs.mac(hash, password);
        int hLen = prf.getMacLength();
        byte[] out = new byte[length];
        int blocks = (length + hLen - 1) / hLen;
        for (int i = 1; i <= blocks; i++) {
            prf.update(salt);
            prf.update(new byte[] {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i});
            byte[] u = prf.doFinal();
            byte[] t = u.clone();
            for (int c = 1; c < iterations; c++) {
                u = prf.doFinal(u);
                for (int j = 0; j < t.length; j++) {
                    t[j] ^= u[j];
                }
            }
            int offset = (i - 1) * hLen;
            System.arraycopy(t, 0, out, offset, Math.min(hLen, length - offset));
        }
        return out;
    }

    /** HKDF extract-and-expand; more than 255 hash lengths is the OperationError workerd gives. */
    static byte[] hkdf(String hash, byte[] key, byte[] salt, byte[] info, int length) {
        int hLen = Hashes.size(hash);
        if (length > 255 * hLen) {
            throw CryptoError.operation("HKDF deriveBits failed.");
        }
        byte[] prk = Hmacs.sign(hash, salt.length == 0 ? new byte[hLen] : salt, key);
        Mac expand = Hmacs.mac(hash, prk);
        ByteArrayOutputStream okm = new ByteArrayOutputStream(length + hLen);
        byte[] t = new byte[0];
        for (int i = 1; okm.size() < length; i++) {
            expand.update(t);
            expand.update(info);
            expand.update((byte) i);
            t = expand.doFinal();
            okm.write(t, 0, t.length);
        }
        byte[] all = okm.toByteArray();
        byte[] out = new byte[length];
        System.arraycopy(all, 0, out, 0, length);
        return out;
    }
}
