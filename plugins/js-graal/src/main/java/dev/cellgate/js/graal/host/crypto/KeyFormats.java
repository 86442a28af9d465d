package dev.cellgate.js.graal.host.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * SPKI and PKCS#8 import for every asymmetric kind: the outer structure is checked as BoringSSL
 * checks it (workerd's "Invalid SPKI input." and trailing-bytes errors), the algorithm OID names
 * the kind, and the JCA KeyFactory of that kind parses the rest. Which kind the caller expected is
 * checked by the caller, after the usages, in workerd's order.
 */
final class KeyFormats {
    private KeyFormats() {
    }

    static KeyHandle spki(byte[] der) {
        String kind = kind(der, false, "SPKI");
        PublicKey k;
        try {
            k = KeyFactory.getInstance(kind).generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw CryptoError.data("Invalid SPKI input.");
        }
        return switch (kind) {
            case "EC" -> EcKeys.fromPublic((ECPublicKey) k);
            case "RSA" -> new KeyHandle("RSA", null, null, k, null);
            default -> OkpKeys.fromPublic(kind, k);
        };
    }

    static KeyHandle pkcs8(byte[] der) {
        String kind = kind(der, true, "PKCS8");
        PrivateKey k;
        try {
            k = KeyFactory.getInstance(kind).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw CryptoError.data("Invalid PKCS8 input.");
        }
        return switch (kind) {
            case "EC" -> EcKeys.fromPrivate((ECPrivateKey) k, der);
            case "RSA" -> RsaKeys.fromPrivate(k instanceof RSAPrivateCrtKey crt ? crt : null, k);
            default -> OkpKeys.fromPrivate(kind, k);
        };
    }

    /** The key kind (a JCA KeyFactory name) an SPKI/PKCS#8 blob declares. */
    private static String kind(byte[] der, boolean pkcs8, String format) {
        int len = der.length > 0 && der[0] == 0x30 ? Der.tlvLength(der, 0) : -1;
        if (len < 0) {
            throw CryptoError.data("Invalid " + format + " input.");
        }
        if (len < der.length) {
            throw CryptoError.data("Invalid " + (der.length - len) + " trailing bytes after " + format + " input.");
        }
        String oid = Der.algorithmOid(Arrays.copyOf(der, len), pkcs8);
        if (oid == null) {
            throw CryptoError.data("Invalid " + format + " input.");
        }
        return switch (oid) {
            case Der.OID_EC -> "EC";
            case Der.OID_RSA -> "RSA";
            case Der.OID_ED25519 -> "Ed25519";
            case Der.OID_X25519 -> "X25519";
            default -> throw CryptoError.data("Invalid " + format + " input.");
        };
    }
}
