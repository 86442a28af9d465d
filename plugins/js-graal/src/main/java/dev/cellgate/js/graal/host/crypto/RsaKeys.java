package dev.cellgate.js.graal.host.crypto;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPrivateKeySpec;
import java.security.spec.RSAPublicKeySpec;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/** RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP keys (SunRsaSign/SunJCE): import, export, generation, signatures, encryption. */
final class RsaKeys {
    private RsaKeys() {
    }

    static KeyHandle fromPrivate(RSAPrivateCrtKey crt, PrivateKey k) {
        if (crt == null) {
            throw CryptoError.data("Invalid PKCS8 input.");
        }
        return new KeyHandle("RSA", null, k, publicKey(crt.getModulus(), crt.getPublicExponent()), null);
    }

    /** From JWK parts, each big-endian unsigned; {@code d} null for a public key, {@code p} null for a private key without CRT values. */
    static KeyHandle fromJwk(byte[] n, byte[] e, byte[] d, byte[] p, byte[] q, byte[] dp, byte[] dq, byte[] qi) {
        BigInteger modulus = new BigInteger(1, n);
        BigInteger exponent = new BigInteger(1, e);
        PublicKey pub = publicKey(modulus, exponent);
        if (d == null) {
            return new KeyHandle("RSA", null, null, pub, null);
        }
        try {
            KeyFactory f = KeyFactory.getInstance("RSA");
            PrivateKey priv = p == null ? f.generatePrivate(new RSAPrivateKeySpec(modulus, new BigInteger(1, d)))
                    : f.generatePrivate(new RSAPrivateCrtKeySpec(modulus, exponent, new BigInteger(1, d), new BigInteger(1, p),
                    new BigInteger(1, q), new BigInteger(1, dp), new BigInteger(1, dq), new BigInteger(1, qi)));
            return new KeyHandle("RSA", null, priv, pub, null);
        } catch (GeneralSecurityException ex) {
            throw CryptoError.data("Invalid RSA key in JSON Web Key.");
        }
    }

    /** A key pair; the JDK makes keys of 512 bits and more (workerd also refuses smaller ones, with its OperationError). */
    static KeyHandle generate(int bits, byte[] publicExponent) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(new RSAKeyGenParameterSpec(bits, new BigInteger(1, publicExponent)));
            KeyPair kp = g.generateKeyPair();
            return new KeyHandle("RSA", null, kp.getPrivate(), kp.getPublic(), null);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw CryptoError.operation("RSA operation failed.");
        }
    }

    /** The modulus length in bits as workerd reports it (whole bytes), then the public exponent's minimal big-endian bytes. */
    static byte[] info(KeyHandle k) {
        RSAPublicKey pub = (RSAPublicKey) k.publicKey();
        int bits = (pub.getModulus().bitLength() + 7) / 8 * 8;
        return Der.concat(new byte[] {(byte) (bits >>> 24), (byte) (bits >>> 16), (byte) (bits >>> 8), (byte) bits},
                unsigned(pub.getPublicExponent()));
    }

    static byte[] spki(KeyHandle k) {
        return k.publicKey().getEncoded();
    }

    static byte[] pkcs8(KeyHandle k) {
        return k.privateKey().getEncoded();
    }

    /** The JWK members in workerd's order (d, n, e, p, q, dp, dq, qi; public: n, e), each prefixed by a 4-byte length. */
    static byte[] jwkParts(KeyHandle k) {
        RSAPublicKey pub = (RSAPublicKey) k.publicKey();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (k.privateKey() instanceof RSAPrivateCrtKey c) {
            for (BigInteger v : new BigInteger[] {c.getPrivateExponent(), c.getModulus(), c.getPublicExponent(), c.getPrimeP(),
                c.getPrimeQ(), c.getPrimeExponentP(), c.getPrimeExponentQ(), c.getCrtCoefficient()}) {
                part(out, v);
            }
        } else if (k.privateKey() != null) {
            part(out, ((java.security.interfaces.RSAPrivateKey) k.privateKey()).getPrivateExponent());
            part(out, pub.getModulus());
            part(out, pub.getPublicExponent());
        } else {
            part(out, pub.getModulus());
            part(out, pub.getPublicExponent());
        }
        return out.toByteArray();
    }

    /** {@code scheme} "PKCS1" or "PSS" (with {@code saltLength}). */
    static byte[] sign(KeyHandle k, String scheme, String hash, int saltLength, byte[] data) {
        try {
            return Signatures.sign(signature(scheme, hash, saltLength), k.privateKey(), data);
        } catch (GeneralSecurityException e) {
            throw CryptoError.operation("RSA operation failed.");
        }
    }

    static boolean verify(KeyHandle k, String scheme, String hash, int saltLength, byte[] signature, byte[] data) {
        try {
            return Signatures.verify(signature(scheme, hash, saltLength), k.publicKey(), signature, data);
        } catch (GeneralSecurityException e) {
            throw CryptoError.operation("RSA operation failed.");
        }
    }

    static byte[] oaep(KeyHandle k, boolean encrypt, String hash, byte[] label, byte[] data) {
        int modulusBytes = (((RSAKey) k.publicKey()).getModulus().bitLength() + 7) / 8;
        if (!encrypt && data.length != modulusBytes) {
            throw CryptoError.operation("RSA-OAEP failed encrypt/decrypt: Invalid RSA signature..");
        }
        try {
            Cipher c = Cipher.getInstance("RSA/ECB/OAEPPadding");
            MGF1ParameterSpec mgf = new MGF1ParameterSpec(Hashes.digest(hash));
            OAEPParameterSpec spec = new OAEPParameterSpec(Hashes.digest(hash), "MGF1", mgf,
                    label == null ? PSource.PSpecified.DEFAULT : new PSource.PSpecified(label));
            c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, encrypt ? k.publicKey() : k.privateKey(), spec);
            return c.doFinal(data);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw CryptoError.operation("RSA-OAEP failed encrypt/decrypt.");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA-OAEP failed", e);
        }
    }

    private static Signature signature(String scheme, String hash, int saltLength) throws GeneralSecurityException {
        if (scheme.equals("PKCS1")) {
            return Signature.getInstance(Hashes.compact(hash) + "withRSA");
        }
        Signature s = Signature.getInstance("RSASSA-PSS");
        s.setParameter(new PSSParameterSpec(Hashes.digest(hash), "MGF1", new MGF1ParameterSpec(Hashes.digest(hash)), saltLength, 1));
        return s;
    }

    private static PublicKey publicKey(BigInteger n, BigInteger e) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
        } catch (GeneralSecurityException ex) {
            throw CryptoError.data("Invalid RSA key.");
        }
    }

    private static void part(ByteArrayOutputStream out, BigInteger v) {
        byte[] b = unsigned(v);
        out.write(b.length >>> 24);
        out.write(b.length >>> 16);
        out.write(b.length >>> 8);
        out.write(b.length);
        out.writeBytes(b);
    }

    /** Minimal big-endian bytes of a non-negative integer (no sign byte). */
    static byte[] unsigned(BigInteger v) {
        byte[] b = v.toByteArray();
        return b.length > 1 && b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
    }
}
