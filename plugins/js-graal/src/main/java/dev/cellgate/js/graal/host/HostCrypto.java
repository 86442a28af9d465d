package dev.cellgate.js.graal.host;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The JDK's crypto behind {@code crypto.*}: faster than JavaScript and constant-time where it matters. */
final class HostCrypto {
    private static final SecureRandom RANDOM = new SecureRandom();

    private HostCrypto() {
    }

    static ByteBuffer randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return ByteBuffer.wrap(b);
    }

    static String randomUUID() {
        return UUID.randomUUID().toString();
    }

    /** {@code algorithm} is a WebCrypto name, already validated by the JavaScript side (SHA-1/256/384/512). */
    static ByteBuffer digest(String algorithm, byte[] data) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance(algorithm).digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("unsupported digest " + algorithm, e);
        }
    }

    static ByteBuffer hmac(String hash, byte[] key, byte[] data) {
        return ByteBuffer.wrap(mac(hash, key, data));
    }

    static boolean hmacVerify(String hash, byte[] key, byte[] signature, byte[] data) {
        return MessageDigest.isEqual(mac(hash, key, data), signature);
    }

    private static byte[] mac(String hash, byte[] key, byte[] data) {
        String name = "Hmac" + hash.replace("-", "");
        try {
            Mac mac = Mac.getInstance(name);
            // An empty HMAC key is legal in WebCrypto but refused by SecretKeySpec; pad it the way HMAC would.
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, name));
            return mac.doFinal(data);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalArgumentException("HMAC " + hash + " failed: " + e.getMessage(), e);
        }
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String randomHex32() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
