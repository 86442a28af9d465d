package dev.cellgate.js.graal.host.crypto;

import java.io.ByteArrayOutputStream;
import javax.crypto.Mac;

/**
 * PBKDF2 (RFC 8018 §5.2) and HKDF (RFC 5869) computed from the JCA's HMAC. Not the JCA's own
 * KDFs: {@code SecretKeyFactory("PBKDF2WithHmac…")} takes the password as {@code char[]} and
 * re-encodes it as UTF-8, so the arbitrary password bytes WebCrypto allows cannot pass through it;
 * {@code javax.crypto.KDF} (HKDF) is JDK 25 API while this plugin is Java 21 bytecode.
 * {@code KeyDerivationTest} checks both against the JCA's PBKDF2 and the RFC test vectors. Shared
 * by crypto.subtle (WebCrypto hash names) and node:crypto ({@code host/NodeHost}, JCA Mac names).
 */
public final class KeyDerivation {
    private KeyDerivation() {
    }

    static byte[] pbkdf2(String hash, byte[] password, byte[] salt, int iterations, int length) {
        return pbkdf2(Hmacs.mac(hash, password), salt, iterations, length);
    }

    /** PBKDF2 over HMAC by its JCA name ({@code HmacSHA256}); the password is bytes, not characters. */
    public static byte[] pbkdf2Jca(String macAlgorithm, byte[] password, byte[] salt, int iterations, int length) {
        return pbkdf2(Hmacs.jcaMac(macAlgorithm, password), salt, iterations, length);
    }

    private static byte[] pbkdf2(Mac prf, byte[] salt, int iterations, int length) {
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
        if (length > 255 * Hashes.size(hash)) {
            throw CryptoError.operation("HKDF deriveBits failed.");
        }
        return hkdfJca(Hmacs.jcaName(hash), key, salt, info, length);
    }

    /** HKDF over HMAC by its JCA name; the caller keeps {@code length} within 255 hash lengths (node:crypto checks it). */
    public static byte[] hkdfJca(String macAlgorithm, byte[] key, byte[] salt, byte[] info, int length) {
        int hLen = Hmacs.jcaMac(macAlgorithm, new byte[1]).getMacLength();
        byte[] prk = Hmacs.jcaMac(macAlgorithm, salt.length == 0 ? new byte[hLen] : salt).doFinal(key);
        Mac expand = Hmacs.jcaMac(macAlgorithm, prk);
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
