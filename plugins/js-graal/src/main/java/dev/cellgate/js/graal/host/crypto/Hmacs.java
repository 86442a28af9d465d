package dev.cellgate.js.graal.host.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC on the JCA's {@code Mac}; also the PRF of {@link KeyDerivation}. */
final class Hmacs {
    private Hmacs() {
    }

    static byte[] sign(String hash, byte[] key, byte[] data) {
        Mac mac = mac(hash, key);
        return mac.doFinal(data);
    }

    static boolean verify(String hash, byte[] key, byte[] signature, byte[] data) {
        return MessageDigest.isEqual(sign(hash, key, data), signature);
    }

    /** An initialized Mac. An empty key is legal in WebCrypto but refused by SecretKeySpec: HMAC pads keys with zeros, so one zero byte is the same key. */
    static Mac mac(String hash, byte[] key) {
        String name = "Hmac" + Hashes.compact(hash);
        try {
            Mac mac = Mac.getInstance(name);
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, name));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK refused " + name, e);
        }
    }
}
