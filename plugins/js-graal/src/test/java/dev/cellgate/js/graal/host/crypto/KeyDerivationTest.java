package dev.cellgate.js.graal.host.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

/** PBKDF2 and HKDF built on the JCA's HMAC agree with the JCA's own PBKDF2 and with the RFC vectors. */
class KeyDerivationTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void pbkdf2MatchesTheJcasOwnForTextPasswords() throws Exception {
        for (String hash : new String[] {"SHA-1", "SHA-256", "SHA-384", "SHA-512"}) {
            for (int length : new int[] {1, 20, 32, 64, 100}) {
                byte[] ours = KeyDerivation.pbkdf2(hash, "pässword".getBytes(StandardCharsets.UTF_8), "salt".getBytes(StandardCharsets.UTF_8), 7, length);
                SecretKeyFactory f = SecretKeyFactory.getInstance("PBKDF2WithHmac" + hash.replace("-", ""));
                byte[] jca = f.generateSecret(new PBEKeySpec("pässword".toCharArray(), "salt".getBytes(StandardCharsets.UTF_8), 7, length * 8)).getEncoded();
                assertThat(ours).as(hash + " " + length).isEqualTo(jca);
            }
        }
    }

    @Test
    void byJcaNameItDerivesWithHashesWebCryptoLacks() throws Exception {
        // node:crypto (host/NodeHost) passes JCA Mac names, e.g. SHA-512/224, which WebCrypto has not
        byte[] ours = KeyDerivation.pbkdf2Jca("HmacSHA512/224", "pw".getBytes(StandardCharsets.UTF_8), "salt".getBytes(StandardCharsets.UTF_8), 3, 40);
        byte[] jca = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA512/224")
                .generateSecret(new PBEKeySpec("pw".toCharArray(), "salt".getBytes(StandardCharsets.UTF_8), 3, 40 * 8)).getEncoded();
        assertThat(ours).isEqualTo(jca);
        byte[] ikm = new byte[22];
        java.util.Arrays.fill(ikm, (byte) 0x0b);
        // the same derivation as by the WebCrypto name, and a JCA name's hash length for an empty salt
        assertThat(KeyDerivation.hkdfJca("HmacSHA256", ikm, new byte[0], new byte[0], 42))
                .isEqualTo(KeyDerivation.hkdf("SHA-256", ikm, new byte[0], new byte[0], 42));
        assertThat(KeyDerivation.hkdfJca("HmacSHA512/224", ikm, new byte[0], new byte[0], 28))
                .isEqualTo(KeyDerivation.hkdfJca("HmacSHA512/224", ikm, new byte[28], new byte[0], 28));
    }

    @Test
    void pbkdf2TakesPasswordBytesThatAreNotText() {
        // RFC 6070 test 3, and a password that is not UTF-8 (reference value: OpenSSL, through Node's pbkdf2Sync)
        assertThat(HEX.formatHex(KeyDerivation.pbkdf2("SHA-1", "password".getBytes(StandardCharsets.US_ASCII),
                "salt".getBytes(StandardCharsets.US_ASCII), 4096, 20))).isEqualTo("4b007901b765489abead49d926f721d065a429c1");
        assertThat(HEX.formatHex(KeyDerivation.pbkdf2("SHA-256", new byte[] {(byte) 0xff, 0, (byte) 0x80},
                "salt".getBytes(StandardCharsets.US_ASCII), 3, 32))).isEqualTo("c837945e4dfca8ada2e5898aa3aea3e3c57af8a0401ce02f7f6d4f37f829d74a");
        assertThat(KeyDerivation.pbkdf2("SHA-256", new byte[0], new byte[0], 1, 0)).isEmpty();
    }

    @Test
    void hkdfMatchesRfc5869() {
        byte[] ikm = new byte[22];
        java.util.Arrays.fill(ikm, (byte) 0x0b);
        assertThat(HEX.formatHex(KeyDerivation.hkdf("SHA-256", ikm, HEX.parseHex("000102030405060708090a0b0c"),
                HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42)))
                .isEqualTo("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
        // test case 3: no salt, no info
        assertThat(HEX.formatHex(KeyDerivation.hkdf("SHA-256", ikm, new byte[0], new byte[0], 42)))
                .isEqualTo("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
    }

    @Test
    void hkdfRefusesMoreThan255HashLengths() {
        assertThat(KeyDerivation.hkdf("SHA-1", new byte[1], new byte[0], new byte[0], 255 * 20)).hasSize(5100);
        assertThatThrownBy(() -> KeyDerivation.hkdf("SHA-1", new byte[1], new byte[0], new byte[0], 255 * 20 + 1))
                .isInstanceOf(CryptoError.class).hasMessage("HKDF deriveBits failed.");
    }
}
