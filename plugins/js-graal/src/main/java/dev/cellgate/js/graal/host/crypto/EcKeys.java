package dev.cellgate.js.graal.host.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import javax.crypto.KeyAgreement;

/** ECDSA and ECDH keys on P-256/P-384/P-521 (SunEC): import, export, generation, signatures (IEEE P1363 form, as WebCrypto wants) and ECDH. */
final class EcKeys {
    /** Test-only negative control: false skips the check that a JWK's d belongs to its x and y, which AsymmetricKeysTest must then see. */
    static volatile boolean pairCheck = true;

    private EcKeys() {
    }

    /** A parsed PKCS#8 EC key, with the public point it carries (or, rarely, one computed from it). */
    static KeyHandle fromPrivate(ECPrivateKey priv, byte[] der) {
        EcCurves.Curve c = EcCurves.of(priv.getParams());
        if (c == null) {
            throw CryptoError.data("Invalid PKCS8 input.");
        }
        byte[] point = Der.ecPublicPoint(der);
        ECPoint w = point != null ? EcCurves.decode(c, point) : publicPoint(c, priv);
        return new KeyHandle("EC", c.name(), priv, publicKey(c, w), null);
    }

    static KeyHandle fromPublic(ECPublicKey k) {
        EcCurves.Curve c = EcCurves.of(k.getParams());
        if (c == null) {
            throw CryptoError.data("Invalid SPKI input.");
        }
        return new KeyHandle("EC", c.name(), null, k, null);
    }

    static KeyHandle fromRaw(String curve, byte[] raw) {
        EcCurves.Curve c = EcCurves.named(curve);
        return new KeyHandle("EC", curve, null, publicKey(c, EcCurves.decode(c, raw)), null);
    }

    /** From JWK parts (already base64url-decoded); {@code d} null for a public key. */
    static KeyHandle fromJwk(String curve, byte[] x, byte[] y, byte[] d) {
        EcCurves.Curve c = EcCurves.named(curve);
        ECPoint w = new ECPoint(new BigInteger(1, x), new BigInteger(1, y));
        if (!EcCurves.onCurve(c, w)) {
            throw CryptoError.operation("Invalid EC key; public key coordinates \"x\" and \"y\" are invalid: Point is not on curve..");
        }
        PublicKey pub = publicKey(c, w);
        if (d == null) {
            return new KeyHandle("EC", curve, null, pub, null);
        }
        BigInteger s = new BigInteger(1, d);
        if (s.signum() == 0 || s.compareTo(c.params().getOrder()) >= 0) {
            throw CryptoError.operation("Invalid EC key; private key component \"d\" is invalid.");
        }
        PrivateKey priv = privateKey(c, s);
        if (pairCheck && !pairs(priv, pub)) {
            throw CryptoError.data("Invalid EC key in JSON Web Key.");
        }
        return new KeyHandle("EC", curve, priv, pub, null);
    }

    static KeyHandle generate(String curve) {
        EcCurves.Curve c = EcCurves.named(curve);
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec(c.jcaName()));
            KeyPair kp = g.generateKeyPair();
            return new KeyHandle("EC", curve, kp.getPrivate(), kp.getPublic(), null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC key generation failed", e);
        }
    }

    static byte[] spki(KeyHandle k) {
        return k.publicKey().getEncoded();
    }

    static byte[] raw(KeyHandle k) {
        return EcCurves.encode(EcCurves.named(k.curve()), ((ECPublicKey) k.publicKey()).getW());
    }

    static byte[] pkcs8(KeyHandle k) {
        EcCurves.Curve c = EcCurves.named(k.curve());
        return Der.ecPrivateKeyInfo(c.oidHex(), EcCurves.fixed(((ECPrivateKey) k.privateKey()).getS(), c.size()), raw(k));
    }

    /** x||y, and ||d for a private key, each padded to the curve's size (the JWK members). */
    static byte[] jwkParts(KeyHandle k) {
        byte[] point = raw(k);
        byte[] xy = java.util.Arrays.copyOfRange(point, 1, point.length);
        if (!k.isPrivate()) {
            return xy;
        }
        return Der.concat(xy, EcCurves.fixed(((ECPrivateKey) k.privateKey()).getS(), EcCurves.named(k.curve()).size()));
    }

    static byte[] sign(KeyHandle k, String hash, byte[] data) {
        try {
            return Signatures.sign(ecdsa(hash, data), k.privateKey(), signedBytes(hash, data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ECDSA signing failed", e);
        }
    }

    static boolean verify(KeyHandle k, String hash, byte[] signature, byte[] data) {
        try {
            return Signatures.verify(ecdsa(hash, data), k.publicKey(), signature, signedBytes(hash, data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ECDSA verification failed", e);
        }
    }

    /** ECDH: the x coordinate of the shared point, in the field's size. */
    static byte[] deriveBits(KeyHandle priv, KeyHandle pub) {
        try {
            KeyAgreement a = KeyAgreement.getInstance("ECDH");
            a.init(priv.privateKey());
            a.doPhase(pub.publicKey(), true);
            return a.generateSecret();
        } catch (GeneralSecurityException e) {
            throw CryptoError.operation("Failed to generate shared ECDH secret.");
        }
    }

    // The JCA has SHA-x with ECDSA; workerd also takes its MD5 extension, which signs the MD5 digest as is.
    private static Signature ecdsa(String hash, byte[] data) throws GeneralSecurityException {
        String name = hash.equals("MD5") ? "NONEwithECDSAinP1363Format" : Hashes.compact(hash) + "withECDSAinP1363Format";
        return Signature.getInstance(name);
    }

    private static byte[] signedBytes(String hash, byte[] data) throws GeneralSecurityException {
        return hash.equals("MD5") ? MessageDigest.getInstance("MD5").digest(data) : data;
    }

    static PublicKey publicKey(EcCurves.Curve c, ECPoint w) {
        try {
            return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, c.params()));
        } catch (GeneralSecurityException e) {
            throw CryptoError.data("Invalid EC key.");
        }
    }

    private static PrivateKey privateKey(EcCurves.Curve c, BigInteger s) {
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(s, c.params()));
        } catch (GeneralSecurityException e) {
            throw CryptoError.data("Invalid EC key.");
        }
    }

    /** Whether {@code pub} is the public key of {@code priv}: a signature of one verifies with the other. */
    private static boolean pairs(PrivateKey priv, PublicKey pub) {
        try {
            byte[] probe = "cellgate key pair check".getBytes(StandardCharsets.US_ASCII);
            byte[] sig = Signatures.sign(Signature.getInstance("SHA256withECDSA"), priv, probe);
            return Signatures.verify(Signature.getInstance("SHA256withECDSA"), pub, sig, probe);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The public point of a PKCS#8 key that does not carry one. The JCA has no scalar
     * multiplication, but ECDH of the key with the generator G is the x coordinate of d·G; of the
     * two points with that x, the public key is the one a signature by the key verifies with.
     */
    private static ECPoint publicPoint(EcCurves.Curve c, ECPrivateKey priv) {
        byte[] x = deriveBits(new KeyHandle("EC", c.name(), priv, null, null),
                new KeyHandle("EC", c.name(), null, publicKey(c, c.params().getGenerator()), null));
        byte[] compressed = new byte[1 + c.size()];
        System.arraycopy(x, 0, compressed, 1, c.size());
        for (byte prefix : new byte[] {2, 3}) {
            compressed[0] = prefix;
            ECPoint w = EcCurves.decode(c, compressed);
            if (pairs(priv, publicKey(c, w))) {
                return w;
            }
        }
        throw CryptoError.data("Invalid PKCS8 input.");
    }
}
