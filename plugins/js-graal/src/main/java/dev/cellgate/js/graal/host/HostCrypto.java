package dev.cellgate.js.graal.host;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/** Randomness and the ids built from it ({@code crypto.getRandomValues}, {@code randomUUID}); WebCrypto proper is {@code host/crypto/}. */
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
