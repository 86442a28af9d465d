package dev.cellgate.js.graal.host.crypto;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.util.Map;

/** The NIST curves WebCrypto names, their JCA parameters, and point encoding (SEC 1 §2.3.3–2.3.4). */
final class EcCurves {
    record Curve(String name, String jcaName, String oidHex, int size, ECParameterSpec params) {
        BigInteger p() {
            return ((ECFieldFp) params.getCurve().getField()).getP();
        }
    }

    private static final Map<String, Curve> CURVES = Map.of(
            "P-256", curve("P-256", "secp256r1", "06082a8648ce3d030107", 32),
            "P-384", curve("P-384", "secp384r1", "06052b81040022", 48),
            "P-521", curve("P-521", "secp521r1", "06052b81040023", 66));

    private EcCurves() {
    }

    static Curve named(String name) {
        Curve c = CURVES.get(name);
        if (c == null) {
            throw new IllegalArgumentException("not a WebCrypto curve: " + name);
        }
        return c;
    }

    /** The curve of JCA parameters, or null when it is none of ours. */
    static Curve of(ECParameterSpec params) {
        for (Curve c : CURVES.values()) {
            if (c.params.getOrder().equals(params.getOrder()) && c.params.getCurve().equals(params.getCurve())) {
                return c;
            }
        }
        return null;
    }

    private static Curve curve(String name, String jcaName, String oidHex, int size) {
        try {
            AlgorithmParameters ap = AlgorithmParameters.getInstance("EC");
            ap.init(new ECGenParameterSpec(jcaName));
            return new Curve(name, jcaName, oidHex, size, ap.getParameterSpec(ECParameterSpec.class));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks curve " + jcaName, e);
        }
    }

    /** Uncompressed encoding 04||X||Y. */
    static byte[] encode(Curve c, ECPoint w) {
        byte[] out = new byte[1 + 2 * c.size];
        out[0] = 4;
        System.arraycopy(fixed(w.getAffineX(), c.size), 0, out, 1, c.size);
        System.arraycopy(fixed(w.getAffineY(), c.size), 0, out, 1 + c.size, c.size);
        return out;
    }

    /** Decodes an uncompressed or compressed point; errors carry workerd's (BoringSSL's) texts. */
    static ECPoint decode(Curve c, byte[] b) {
        int n = c.size;
        if (b.length == 1 + 2 * n && b[0] == 4) {
            ECPoint w = new ECPoint(new BigInteger(1, slice(b, 1, n)), new BigInteger(1, slice(b, 1 + n, n)));
            requireOnCurve(c, w, "Failed to import raw EC key data: Point is not on curve..");
            return w;
        }
        if (b.length == 1 + n && (b[0] == 2 || b[0] == 3)) {
            BigInteger x = new BigInteger(1, slice(b, 1, n));
            BigInteger p = c.p();
            BigInteger rhs = rhs(c, x);
            // p ≡ 3 (mod 4) for the three NIST curves, so a square root is rhs^((p+1)/4).
            BigInteger y = rhs.modPow(p.add(BigInteger.ONE).shiftRight(2), p);
            if (x.compareTo(p) >= 0 || !y.multiply(y).mod(p).equals(rhs)) {
                throw CryptoError.data("Failed to import raw EC key data: Invalid compressed point..");
            }
            if (y.testBit(0) != (b[0] == 3)) {
                y = p.subtract(y);
            }
            return new ECPoint(x, y);
        }
        throw CryptoError.data("Failed to import raw EC key data: Invalid point encoding..");
    }

    static boolean onCurve(Curve c, ECPoint w) {
        BigInteger p = c.p();
        BigInteger x = w.getAffineX();
        BigInteger y = w.getAffineY();
        return x.signum() >= 0 && y.signum() >= 0 && x.compareTo(p) < 0 && y.compareTo(p) < 0 && y.multiply(y).mod(p).equals(rhs(c, x));
    }

    static void requireOnCurve(Curve c, ECPoint w, String message) {
        if (!onCurve(c, w)) {
            throw CryptoError.data(message);
        }
    }

    private static BigInteger rhs(Curve c, BigInteger x) {
        BigInteger p = c.p();
        return x.pow(3).add(c.params.getCurve().getA().multiply(x)).add(c.params.getCurve().getB()).mod(p);
    }

    /** Big-endian, left-padded (or trimmed of sign bytes) to {@code size}. */
    static byte[] fixed(BigInteger v, int size) {
        byte[] b = v.toByteArray();
        byte[] out = new byte[size];
        int copy = Math.min(b.length, size);
        System.arraycopy(b, b.length - copy, out, size - copy, copy);
        return out;
    }

    private static byte[] slice(byte[] b, int from, int n) {
        byte[] out = new byte[n];
        System.arraycopy(b, from, out, 0, n);
        return out;
    }
}
