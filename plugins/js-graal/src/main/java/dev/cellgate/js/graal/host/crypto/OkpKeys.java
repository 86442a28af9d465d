package dev.cellgate.js.graal.host.crypto;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.XECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.KeyAgreement;

/**
 * Ed25519 and X25519 keys (the JDK's EdDSA and XDH): import, export, generation, Ed25519
 * signatures and X25519 agreement. Keys enter the JCA as SPKI/PKCS#8 built from the raw 32 bytes,
 * so no coordinate arithmetic happens here. The JCA cannot compute a public key from a private
 * one directly, so its key-pair generator is handed the private bytes as its "random" input.
 */
final class OkpKeys {
    private static final HexFormat HEX = HexFormat.of();

    private OkpKeys() {
    }

    static KeyHandle fromPublic(String kind, PublicKey k) {
        byte[] der = k.getEncoded();
        return new KeyHandle(kind, null, null, k, Arrays.copyOfRange(der, der.length - 32, der.length));
    }

    static KeyHandle fromRaw(String kind, byte[] raw) {
        try {
            PublicKey k = KeyFactory.getInstance(kind).generatePublic(new X509EncodedKeySpec(spkiOf(kind, raw)));
            return new KeyHandle(kind, null, null, k, raw.clone());
        } catch (GeneralSecurityException e) {
            throw CryptoError.data("Invalid " + kind + " public key.");
        }
    }

    static KeyHandle fromPrivate(String kind, PrivateKey k) {
        byte[] d = privateBytes(kind, k);
        KeyPair pair = generate(kind, new FixedRandom(d));
        if (!Arrays.equals(privateBytes(kind, pair.getPrivate()), d)) {
            throw new IllegalStateException("the JDK's " + kind + " generator did not take the given private key");
        }
        return new KeyHandle(kind, null, k, pair.getPublic(), fromPublic(kind, pair.getPublic()).rawPublic());
    }

    /** From JWK parts: {@code d} null for a public key ({@code x}); for a private key, x is ignored as workerd ignores it. */
    static KeyHandle fromJwk(String kind, byte[] x, byte[] d) {
        if (d == null) {
            return fromRaw(kind, x);
        }
        try {
            return fromPrivate(kind, KeyFactory.getInstance(kind).generatePrivate(new PKCS8EncodedKeySpec(pkcs8Of(kind, d))));
        } catch (GeneralSecurityException e) {
            throw CryptoError.data("Invalid " + kind + " private key.");
        }
    }

    static KeyHandle generate(String kind) {
        KeyPair pair = generate(kind, new SecureRandom());
        return new KeyHandle(kind, null, pair.getPrivate(), pair.getPublic(), fromPublic(kind, pair.getPublic()).rawPublic());
    }

    static byte[] raw(KeyHandle k) {
        return k.rawPublic().clone();
    }

    static byte[] spki(KeyHandle k) {
        return spkiOf(k.kind(), k.rawPublic());
    }

    static byte[] pkcs8(KeyHandle k) {
        return pkcs8Of(k.kind(), privateBytes(k.kind(), k.privateKey()));
    }

    /** x, and ||d for a private key (the JWK members). */
    static byte[] jwkParts(KeyHandle k) {
        return k.isPrivate() ? Der.concat(k.rawPublic(), privateBytes(k.kind(), k.privateKey())) : raw(k);
    }

    static byte[] sign(KeyHandle k, byte[] data) {
        try {
            return Signatures.sign(Signature.getInstance("Ed25519"), k.privateKey(), data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    static boolean verify(KeyHandle k, byte[] signature, byte[] data) {
        try {
            return Signatures.verify(Signature.getInstance("Ed25519"), k.publicKey(), signature, data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 verification failed", e);
        }
    }

    /** X25519; an all-zero result (a small-order peer point) is refused, as RFC 7748 §6.1 and workerd require. */
    static byte[] x25519(KeyHandle priv, KeyHandle pub) {
        try {
            KeyAgreement a = KeyAgreement.getInstance("X25519");
            a.init(priv.privateKey());
            a.doPhase(pub.publicKey(), true);
            byte[] secret = a.generateSecret();
            int any = 0;
            for (byte b : secret) {
                any |= b;
            }
            if (any == 0) {
                throw smallOrder();
            }
            return secret;
        } catch (InvalidKeyException e) {
            throw smallOrder();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X25519 failed", e);
        }
    }

    private static CryptoError smallOrder() {
        // workerd's text: BoringSSL's error for the same condition
        return CryptoError.operation("Failed to derive EDDH key: public key routines INVALID_PEER_KEY.");
    }

    private static KeyPair generate(String kind, SecureRandom random) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(kind);
            g.initialize(kind.equals("Ed25519") ? java.security.spec.NamedParameterSpec.ED25519
                    : java.security.spec.NamedParameterSpec.X25519, random);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(kind + " key generation failed", e);
        }
    }

    private static byte[] privateBytes(String kind, PrivateKey k) {
        return (kind.equals("Ed25519") ? ((EdECPrivateKey) k).getBytes() : ((XECPrivateKey) k).getScalar())
                .orElseThrow(() -> new IllegalStateException("a " + kind + " private key without its bytes"));
    }

    private static byte[] spkiOf(String kind, byte[] raw) {
        return Der.concat(HEX.parseHex(kind.equals("Ed25519") ? "302a300506032b6570032100" : "302a300506032b656e032100"), raw);
    }

    private static byte[] pkcs8Of(String kind, byte[] d) {
        return Der.concat(HEX.parseHex(kind.equals("Ed25519") ? "302e020100300506032b657004220420" : "302e020100300506032b656e04220420"), d);
    }

    /** A "random" source that yields the given private key bytes, once. */
    private static final class FixedRandom extends SecureRandom {
        private final byte[] bytes;
        private boolean used;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            if (used || out.length != bytes.length) {
                throw new IllegalStateException("the JDK's key-pair generator asked for " + out.length + " more random bytes");
            }
            used = true;
            System.arraycopy(bytes, 0, out, 0, out.length);
        }
    }
}
