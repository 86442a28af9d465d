package dev.cellgate.js.graal.host.crypto;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The little DER that WebCrypto key formats need around the JCA: the extent of an outer
 * structure (to report trailing bytes as BoringSSL does), the algorithm OID of an SPKI or PKCS#8
 * blob (to name the key kind before a KeyFactory sees it), and the EC private key layout workerd
 * exports. A structural reader and writer only; no cryptography.
 */
final class Der {
    static final String OID_EC = "06072a8648ce3d0201";
    static final String OID_RSA = "06092a864886f70d010101";
    static final String OID_ED25519 = "06032b6570";
    static final String OID_X25519 = "06032b656e";

    private Der() {
    }

    /** Total length of the TLV starting at {@code offset}, or -1 if it is not well-formed within {@code der}. */
    static int tlvLength(byte[] der, int offset) {
        if (offset + 2 > der.length) {
            return -1;
        }
        int len = der[offset + 1] & 0xff;
        int header = 2;
        if (len >= 0x80) {
            int n = len & 0x7f;
            if (n == 0 || n > 3 || offset + 2 + n > der.length) {
                return -1;
            }
            len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (der[offset + 2 + i] & 0xff);
            }
            header += n;
        }
        long total = (long) header + len;
        return offset + total > der.length ? -1 : (int) total;
    }

    /** Offset of the contents of the TLV at {@code offset}. */
    static int contents(byte[] der, int offset) {
        int len = der[offset + 1] & 0xff;
        return offset + 2 + (len >= 0x80 ? len & 0x7f : 0);
    }

    /**
     * The algorithm OID (as hex of its whole TLV) of an SPKI ({@code SEQ{SEQ{OID..}, BIT STRING}}) or
     * PKCS#8 ({@code SEQ{INT, SEQ{OID..}, OCTET STRING}}), or null if the layout is not that.
     */
    static String algorithmOid(byte[] der, boolean pkcs8) {
        try {
            if (der.length < 2 || der[0] != 0x30) {
                return null;
            }
            int p = contents(der, 0);
            if (pkcs8) {
                if (der[p] != 0x02) {
                    return null;
                }
                p += tlvLength(der, p);
            }
            if (der[p] != 0x30) {
                return null;
            }
            int oid = contents(der, p);
            int oidLen = tlvLength(der, oid);
            if (der[oid] != 0x06 || oidLen < 0) {
                return null;
            }
            return HexFormat.of().formatHex(der, oid, oid + oidLen);
        } catch (ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    /**
     * The public point inside a PKCS#8 EC key ({@code ECPrivateKey [1] BIT STRING}), or null when the
     * encoding has none.
     */
    static byte[] ecPublicPoint(byte[] pkcs8) {
        try {
            int p = contents(pkcs8, 0);
            p += tlvLength(pkcs8, p); // version
            p += tlvLength(pkcs8, p); // algorithm
            int octets = contents(pkcs8, p); // OCTET STRING holding ECPrivateKey
            int seq = octets;
            int end = seq + tlvLength(pkcs8, seq);
            int q = contents(pkcs8, seq);
            while (q < end) {
                int len = tlvLength(pkcs8, q);
                if (len < 0) {
                    return null;
                }
                if ((pkcs8[q] & 0xff) == 0xa1) {
                    int bits = contents(pkcs8, q);
                    int bitsLen = tlvLength(pkcs8, bits);
                    int c = contents(pkcs8, bits);
                    return Arrays.copyOfRange(pkcs8, c + 1, bits + bitsLen); // skip the unused-bits byte
                }
                q += len;
            }
            return null;
        } catch (ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    /**
     * PKCS#8 of an EC private key as BoringSSL writes it (and so workerd exports it): the curve in
     * the AlgorithmIdentifier only, the scalar padded to the order's size, the public point in [1].
     */
    static byte[] ecPrivateKeyInfo(String curveOidHex, byte[] scalar, byte[] uncompressedPoint) {
        byte[] ecPrivateKey = tlv(0x30, concat(tlv(0x02, new byte[] {1}), tlv(0x04, scalar),
                tlv(0xa1, tlv(0x03, concat(new byte[] {0}, uncompressedPoint)))));
        byte[] algorithm = tlv(0x30, concat(HexFormat.of().parseHex(OID_EC), HexFormat.of().parseHex(curveOidHex)));
        return tlv(0x30, concat(tlv(0x02, new byte[] {0}), algorithm, tlv(0x04, ecPrivateKey)));
    }

    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 4);
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >>> 8);
            out.write(n);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
