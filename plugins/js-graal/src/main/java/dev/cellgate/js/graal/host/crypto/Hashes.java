package dev.cellgate.js.graal.host.crypto;

/**
 * The hash names WebCrypto code passes to the host (normalized by the JavaScript side: SHA-1,
 * SHA-256, SHA-384, SHA-512 and workerd's MD5 extension) and their JCA spellings.
 */
final class Hashes {
    private Hashes() {
    }

    /** The JCA {@code MessageDigest} name. */
    static String digest(String hash) {
        return switch (hash) {
            case "SHA-1", "SHA-256", "SHA-384", "SHA-512", "MD5" -> hash;
            default -> throw new IllegalArgumentException("not a normalized hash name: " + hash);
        };
    }

    /** The part of JCA algorithm names such as {@code HmacSHA256} and {@code SHA256withRSA}. */
    static String compact(String hash) {
        return digest(hash).replace("-", "");
    }

    /** Digest length in bytes. */
    static int size(String hash) {
        return switch (digest(hash)) {
            case "SHA-1" -> 20;
            case "SHA-256" -> 32;
            case "SHA-384" -> 48;
            case "SHA-512" -> 64;
            default -> 16;
        };
    }
}
