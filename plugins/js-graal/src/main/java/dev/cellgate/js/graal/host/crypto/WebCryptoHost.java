package dev.cellgate.js.graal.host.crypto;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * What {@code crypto-*.js} asks of the JCA ({@code host.webCrypto()}), one method per operation,
 * each delegating to the class that does that job. Byte arguments are whole ArrayBuffers (the
 * script copies views out first), results ByteBuffers. Arguments are validated on the JavaScript
 * side in workerd's order; a failure that depends on the data (a bad tag, a malformed SPKI…)
 * comes back as a {@link CryptoError}: the call returns null and {@link #takeError} names it.
 */
public final class WebCryptoHost {
    private CryptoError error;

    /** "Name\u0000message" of the last failure, once. */
    @HostAccess.Export
    public String takeError() {
        CryptoError e = error;
        error = null;
        return e == null ? null : e.name() + "\u0000" + e.getMessage();
    }

    private <T> T guard(Supplier<T> op) {
        try {
            return op.get();
        } catch (CryptoError e) {
            error = e;
            return null;
        }
    }

    private ByteBuffer bytes(Supplier<byte[]> op) {
        byte[] b = guard(op);
        return b == null ? null : ByteBuffer.wrap(b);
    }

    static byte[] in(Value v) {
        if (v == null || v.isNull()) {
            return null;
        }
        byte[] b = new byte[(int) v.getBufferSize()];
        if (b.length > 0) {
            v.readBuffer(0, b, 0, b.length);
        }
        return b;
    }

    // ---- digests, HMAC, KDFs ----

    @HostAccess.Export
    public ByteBuffer digest(String hash, Value data) {
        return ByteBuffer.wrap(Digests.digest(hash, in(data)));
    }

    @HostAccess.Export
    public Object digestStart(String name) {
        return Digests.start(name);
    }

    @HostAccess.Export
    public void digestUpdate(Object running, Value data) {
        ((Digests.Running) running).update(in(data));
    }

    @HostAccess.Export
    public ByteBuffer digestFinish(Object running) {
        return ByteBuffer.wrap(((Digests.Running) running).finish());
    }

    @HostAccess.Export
    public ByteBuffer hmac(String hash, Value key, Value data) {
        return ByteBuffer.wrap(Hmacs.sign(hash, in(key), in(data)));
    }

    @HostAccess.Export
    public boolean hmacVerify(String hash, Value key, Value signature, Value data) {
        return Hmacs.verify(hash, in(key), in(signature), in(data));
    }

    @HostAccess.Export
    public ByteBuffer pbkdf2(String hash, Value password, Value salt, int iterations, int length) {
        return ByteBuffer.wrap(KeyDerivation.pbkdf2(hash, in(password), in(salt), iterations, length));
    }

    @HostAccess.Export
    public ByteBuffer hkdf(String hash, Value key, Value salt, Value info, int length) {
        return bytes(() -> KeyDerivation.hkdf(hash, in(key), in(salt), in(info), length));
    }

    /** Constant-time equality of two equally long buffers ({@code timingSafeEqual}). */
    @HostAccess.Export
    public boolean equal(Value a, Value b) {
        return MessageDigest.isEqual(in(a), in(b));
    }

    // ---- AES ----

    @HostAccess.Export
    public ByteBuffer aesGcm(boolean encrypt, Value key, Value iv, Value aad, int tagBits, Value data) {
        return bytes(() -> AesCiphers.gcm(encrypt, in(key), in(iv), in(aad), tagBits, in(data)));
    }

    @HostAccess.Export
    public ByteBuffer aesCbc(boolean encrypt, Value key, Value iv, Value data) {
        return bytes(() -> AesCiphers.cbc(encrypt, in(key), in(iv), in(data)));
    }

    @HostAccess.Export
    public ByteBuffer aesCtr(Value key, Value counter, int counterBits, Value data) {
        return bytes(() -> AesCiphers.ctr(in(key), in(counter), counterBits, in(data)));
    }

    @HostAccess.Export
    public ByteBuffer aesKw(boolean wrap, Value key, Value data) {
        return bytes(() -> AesCiphers.kw(wrap, in(key), in(data)));
    }

    // ---- asymmetric keys: import, export, facts ----

    /** {@code format} "spki" or "pkcs8": a key of whatever kind the blob declares. */
    @HostAccess.Export
    public Object importKey(String format, Value data) {
        return guard(() -> format.equals("spki") ? KeyFormats.spki(in(data)) : KeyFormats.pkcs8(in(data)));
    }

    @HostAccess.Export
    public Object importEcRaw(String curve, Value raw) {
        return guard(() -> EcKeys.fromRaw(curve, in(raw)));
    }

    @HostAccess.Export
    public Object importEcJwk(String curve, Value x, Value y, Value d) {
        return guard(() -> EcKeys.fromJwk(curve, in(x), in(y), in(d)));
    }

    @HostAccess.Export
    public Object importOkpRaw(String kind, Value raw) {
        return guard(() -> OkpKeys.fromRaw(kind, in(raw)));
    }

    @HostAccess.Export
    public Object importOkpJwk(String kind, Value x, Value d) {
        return guard(() -> OkpKeys.fromJwk(kind, in(x), in(d)));
    }

    @HostAccess.Export
    public Object importRsaJwk(Value n, Value e, Value d, Value p, Value q, Value dp, Value dq, Value qi) {
        return guard(() -> RsaKeys.fromJwk(in(n), in(e), in(d), in(p), in(q), in(dp), in(dq), in(qi)));
    }

    /** "EC", "RSA", "Ed25519" or "X25519". */
    @HostAccess.Export
    public String keyKind(Object key) {
        return ((KeyHandle) key).kind();
    }

    @HostAccess.Export
    public String keyCurve(Object key) {
        return ((KeyHandle) key).curve();
    }

    @HostAccess.Export
    public boolean keyIsPrivate(Object key) {
        return ((KeyHandle) key).isPrivate();
    }

    @HostAccess.Export
    public Object publicKeyOf(Object key) {
        return ((KeyHandle) key).publicOnly();
    }

    @HostAccess.Export
    public ByteBuffer rsaInfo(Object key) {
        return ByteBuffer.wrap(RsaKeys.info((KeyHandle) key));
    }

    /** {@code format} "spki", "pkcs8", "raw" or "jwk" (the JWK members' bytes, see each kind's jwkParts). */
    @HostAccess.Export
    public ByteBuffer exportKey(Object key, String format) {
        KeyHandle k = (KeyHandle) key;
        byte[] out = switch (k.kind()) {
            case "EC" -> switch (format) {
                case "spki" -> EcKeys.spki(k);
                case "pkcs8" -> EcKeys.pkcs8(k);
                case "raw" -> EcKeys.raw(k);
                default -> EcKeys.jwkParts(k);
            };
            case "RSA" -> switch (format) {
                case "spki" -> RsaKeys.spki(k);
                case "pkcs8" -> RsaKeys.pkcs8(k);
                default -> RsaKeys.jwkParts(k);
            };
            default -> switch (format) {
                case "spki" -> OkpKeys.spki(k);
                case "pkcs8" -> OkpKeys.pkcs8(k);
                case "raw" -> OkpKeys.raw(k);
                default -> OkpKeys.jwkParts(k);
            };
        };
        return ByteBuffer.wrap(out);
    }

    // ---- generation ----

    @HostAccess.Export
    public Object generateEc(String curve) {
        return EcKeys.generate(curve);
    }

    @HostAccess.Export
    public Object generateOkp(String kind) {
        return OkpKeys.generate(kind);
    }

    @HostAccess.Export
    public Object generateRsa(int bits, Value publicExponent) {
        return guard(() -> RsaKeys.generate(bits, in(publicExponent)));
    }

    // ---- signatures, agreement, RSA-OAEP ----

    @HostAccess.Export
    public ByteBuffer ecdsaSign(Object key, String hash, Value data) {
        return ByteBuffer.wrap(EcKeys.sign((KeyHandle) key, hash, in(data)));
    }

    @HostAccess.Export
    public boolean ecdsaVerify(Object key, String hash, Value signature, Value data) {
        return EcKeys.verify((KeyHandle) key, hash, in(signature), in(data));
    }

    @HostAccess.Export
    public ByteBuffer ecdh(Object privateKey, Object publicKey) {
        return bytes(() -> EcKeys.deriveBits((KeyHandle) privateKey, (KeyHandle) publicKey));
    }

    @HostAccess.Export
    public ByteBuffer ed25519Sign(Object key, Value data) {
        return ByteBuffer.wrap(OkpKeys.sign((KeyHandle) key, in(data)));
    }

    @HostAccess.Export
    public boolean ed25519Verify(Object key, Value signature, Value data) {
        return OkpKeys.verify((KeyHandle) key, in(signature), in(data));
    }

    @HostAccess.Export
    public ByteBuffer x25519(Object privateKey, Object publicKey) {
        return bytes(() -> OkpKeys.x25519((KeyHandle) privateKey, (KeyHandle) publicKey));
    }

    @HostAccess.Export
    public ByteBuffer rsaSign(Object key, String scheme, String hash, int saltLength, Value data) {
        return bytes(() -> RsaKeys.sign((KeyHandle) key, scheme, hash, saltLength, in(data)));
    }

    @HostAccess.Export
    public Boolean rsaVerify(Object key, String scheme, String hash, int saltLength, Value signature, Value data) {
        return guard(() -> RsaKeys.verify((KeyHandle) key, scheme, hash, saltLength, in(signature), in(data)));
    }

    @HostAccess.Export
    public ByteBuffer rsaOaep(Object key, boolean encrypt, String hash, Value label, Value data) {
        return bytes(() -> RsaKeys.oaep((KeyHandle) key, encrypt, hash, in(label), in(data)));
    }
}
