package dev.cellgate.js.graal.host.crypto;

import java.security.PrivateKey;
import java.security.PublicKey;

/**
 * An asymmetric CryptoKey's material, held by the JavaScript CryptoKey as an opaque host object
 * (no member is exported, so script code can neither read nor forge it). It keeps the JCA key
 * objects the operations need, so nothing is re-parsed per call, and dies with the CryptoKey.
 * A private key also holds its public key: the exports (PKCS#8 of EC, JWK) need the public part.
 *
 * @param kind      "EC", "RSA", "Ed25519" or "X25519"
 * @param curve     WebCrypto curve name of an EC key ("P-256"…), else null
 * @param rawPublic the 32 public bytes of an Ed25519/X25519 key as given (kept verbatim), else null
 */
record KeyHandle(String kind, String curve, PrivateKey privateKey, PublicKey publicKey, byte[] rawPublic) {
    boolean isPrivate() {
        return privateKey != null;
    }

    KeyHandle publicOnly() {
        return new KeyHandle(kind, curve, null, publicKey, rawPublic);
    }
}
