package dev.cellgate.js.graal.host.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC on the JCA's {@code Mac}; also the PRF of {@link KeyDerivation}, and node:crypto's HMAC ({@code host/NodeHost}). */
public final class Hmacs {
    private Hmacs() {
    }

    static byte[] sign(String hash, byte[] key, byte[] data) {
        Mac mac = mac(hash, key);
        return mac.doFinal(data);
    }

    static boolean verify(String hash, byte[] key, byte[] signature, byte[] data) {
        return MessageDigest.isEqual(sign(hash, key, data), signature);
    }

    /** An initialized Mac for a WebCrypto hash name (SHA-256…). */
    static Mac mac(String hash, byte[] key) {
        return jcaMac(jcaName(hash), key);
    }

    /** The JCA Mac name of HMAC over a WebCrypto hash ({@code SHA-256} → {@code HmacSHA256}). */
    static String jcaName(String hash) {
        return "Hmac" + Hashes.compact(hash);
    }

    /**
     * An initialized Mac by its JCA name ({@code HmacSHA256}, {@code HmacSHA3-256}: node:crypto offers
     * more hashes than WebCrypto). An empty key is legal in WebCrypto and Node but refused by
     * SecretKeySpec: HMAC pads keys with zeros, so one zero byte is the same key.
     */
    public static Mac jcaMac(String name, byte[] key) {
        try {
            Mac mac = Mac.getInstance(name);
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, name));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK refused " + name, e);
        }
    }
}
