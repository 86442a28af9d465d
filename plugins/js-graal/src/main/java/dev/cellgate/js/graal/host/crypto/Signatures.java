package dev.cellgate.js.graal.host.crypto;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;

/** One signing or verification with a configured JCA {@code Signature}; a malformed signature verifies as false, as in workerd. */
final class Signatures {
    private Signatures() {
    }

    static byte[] sign(Signature s, PrivateKey key, byte[] data) throws GeneralSecurityException {
        s.initSign(key);
        s.update(data);
        return s.sign();
    }

    static boolean verify(Signature s, PublicKey key, byte[] signature, byte[] data) throws GeneralSecurityException {
        s.initVerify(key);
        s.update(data);
        try {
            return s.verify(signature);
        } catch (SignatureException e) {
            return false;
        }
    }
}
