package dev.cellgate.js.graal.host.crypto;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM, AES-CBC, AES-CTR and AES-KW on the JCA ({@code AES/GCM/NoPadding},
 * {@code AES/CBC/PKCS5Padding}, {@code AES/CTR/NoPadding}, {@code AES/KW/NoPadding}). Parameters
 * (IV sizes, tag and counter lengths) are validated by the JavaScript side in workerd's order;
 * what reaches here is well-formed, and only data-dependent failures are reported.
 */
final class AesCiphers {
    private static final int BLOCK = 16;
    /** Test-only negative control: false skips the short-tag comparison, which AesCiphersTest must then see. */
    static volatile boolean shortTagCheck = true;

    private AesCiphers() {
    }

    /**
     * GCM with a tag of {@code tagBits}. The JCA supports tags of 96 to 128 bits; WebCrypto also
     * allows 32 and 64, which are the first bits of the full tag (NIST SP 800-38D §5.2.1.2). For
     * those, encryption truncates a full tag, and decryption recovers the plaintext with the same
     * keystream (GCM-encrypting zeros), recomputes the full tag and compares its first bits.
     */
    static byte[] gcm(boolean encrypt, byte[] key, byte[] iv, byte[] aad, int tagBits, byte[] data) {
        if (tagBits >= 96) {
            try {
                return gcmCipher(encrypt, key, iv, aad, tagBits).doFinal(data);
            } catch (AEADBadTagException e) {
                throw decryptionFailed(data.length - tagBits / 8, data.length - tagBits / 8, "AES-GCM");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed", e);
            }
        }
        int tagBytes = tagBits / 8;
        if (encrypt) {
            byte[] full = gcm(true, key, iv, aad, 128, data);
            return Arrays.copyOf(full, data.length + tagBytes);
        }
        int n = data.length - tagBytes;
        byte[] keystream = gcm(true, key, iv, aad, 128, new byte[n]);
        byte[] plain = new byte[n];
        for (int i = 0; i < n; i++) {
            plain[i] = (byte) (data[i] ^ keystream[i]);
        }
        byte[] expected = Arrays.copyOfRange(gcm(true, key, iv, aad, 128, plain), n, n + tagBytes);
        if (shortTagCheck && !MessageDigest.isEqual(expected, Arrays.copyOfRange(data, n, data.length))) {
            throw decryptionFailed(n, n, "AES-GCM");
        }
        return plain;
    }

    private static Cipher gcmCipher(boolean encrypt, byte[] key, byte[] iv, byte[] aad, int tagBits)
            throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(tagBits, iv));
        if (aad.length > 0) {
            c.updateAAD(aad);
        }
        return c;
    }

    static byte[] cbc(boolean encrypt, byte[] key, byte[] iv, byte[] data) {
        if (!encrypt && data.length == 0) {
            throw decryptionFailed(0, 0, "AES-CBC"); // the JCA decrypts nothing to nothing; a padded ciphertext has a block
        }
        try {
            Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
            return c.doFinal(data);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            // workerd reports the bytes BoringSSL had produced before the final block: all but the last block.
            throw decryptionFailed(data.length, Math.max(0, (data.length - 1) / BLOCK) * BLOCK, "AES-CBC");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CBC failed", e);
        }
    }

    /**
     * CTR where only the rightmost {@code counterBits} of the block count (WebCrypto): the JCA's
     * CTR increments all 128 bits, so the data is cut where those bits wrap and the rest is
     * processed from a block whose counter bits are zero, as workerd does.
     */
    static byte[] ctr(byte[] key, byte[] counterBlock, int counterBits, byte[] data) {
        BigInteger values = BigInteger.ONE.shiftLeft(counterBits);
        BigInteger counter = new BigInteger(1, counterBlock).mod(values);
        BigInteger blocks = BigInteger.valueOf((data.length + BLOCK - 1) / BLOCK);
        if (blocks.compareTo(values) > 0) {
            throw CryptoError.operation("Counter block values will repeat.");
        }
        BigInteger untilWrap = values.subtract(counter);
        if (untilWrap.compareTo(blocks) >= 0) {
            return ctrPass(key, counterBlock, data, 0, data.length, new byte[data.length]);
        }
        int firstPart = untilWrap.intValueExact() * BLOCK;
        byte[] out = new byte[data.length];
        ctrPass(key, counterBlock, data, 0, firstPart, out);
        byte[] wrapped = counterBlock.clone();
        for (int bit = 0; bit < counterBits; bit++) {
            wrapped[BLOCK - 1 - bit / 8] &= (byte) ~(1 << (bit % 8));
        }
        ctrPass(key, wrapped, data, firstPart, data.length - firstPart, out);
        return out;
    }

    private static byte[] ctrPass(byte[] key, byte[] counterBlock, byte[] data, int offset, int length, byte[] out) {
        try {
            Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(counterBlock));
            c.doFinal(data, offset, length, out, offset);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR failed", e);
        }
    }

    /** RFC 3394 key wrap with the default IV; a failed integrity check is workerd's OperationError. */
    static byte[] kw(boolean wrap, byte[] key, byte[] data) {
        try {
            Cipher c = Cipher.getInstance("AES/KW/NoPadding");
            c.init(wrap ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"));
            return c.doFinal(data);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw CryptoError.operation(wrap ? "AES-KW key wrapping failed." : "AES-KW key unwrapping failed.");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-KW failed", e);
        }
    }

    private static CryptoError decryptionFailed(int inputLength, int outputLength, String algorithm) {
        return CryptoError.operation("Decryption failed. This could be due to a ciphertext authentication failure, bad padding, "
                + "incorrect CryptoKey, or another algorithm-specific reason. Input length was " + inputLength
                + ", output length expected to be " + outputLength + " for " + algorithm);
    }
}
