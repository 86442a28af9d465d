package dev.cellgate.js.graal.host.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the JCA does not do directly for WebCrypto keys: public keys from private ones, workerd's PKCS#8 layout, key-pair checks. */
class AsymmetricKeysTest {
    private static final HexFormat HEX = HexFormat.of();
    // A P-256 key as OpenSSL writes it (PKCS#8 with the public point), through Node.
    private static final String P256_D = "790da8430cefd03dca6701a22027701aec828383882b2882914decbe5d7aed09";
    private static final String P256_POINT = "044489826f340b88d1cb0263f05e9ea4662ac0c51685c86ce68c1c2a102fe5502f57b892bcbdad7a999cd080338a82c22e2095bc903ad179d4c815d0436f807bbe";
    private static final String P256_PKCS8 = "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420" + P256_D
            + "a14403420004" + P256_POINT.substring(2);

    @AfterEach
    void restore() {
        EcKeys.pairCheck = true;
    }

    @Test
    void ecPkcs8IsExportedInBoringSslsLayout() {
        KeyHandle k = KeyFormats.pkcs8(HEX.parseHex(P256_PKCS8));
        assertThat(k.curve()).isEqualTo("P-256");
        assertThat(HEX.formatHex(EcKeys.pkcs8(k))).isEqualTo(P256_PKCS8);
        assertThat(HEX.formatHex(EcKeys.raw(k))).isEqualTo(P256_POINT);
    }

    @Test
    void aPkcs8WithoutThePublicPointGetsItComputed() {
        byte[] ecPrivateKey = Der.tlv(0x30, Der.concat(Der.tlv(0x02, new byte[] {1}), Der.tlv(0x04, HEX.parseHex(P256_D))));
        byte[] pkcs8 = Der.tlv(0x30, Der.concat(Der.tlv(0x02, new byte[] {0}),
                HEX.parseHex("301306072a8648ce3d020106082a8648ce3d030107"), Der.tlv(0x04, ecPrivateKey)));
        KeyHandle k = KeyFormats.pkcs8(pkcs8);
        assertThat(HEX.formatHex(EcKeys.raw(k))).isEqualTo(P256_POINT);
    }

    @Test
    void anEcJwkWhosePrivatePartDoesNotMatchItsPointIsRefused() {
        assertMismatchRefused();
    }

    /** The negative control: without the key-pair check the same test must see a mismatched JWK accepted. */
    @Test
    void theMismatchTestSeesAMissingPairCheck() {
        EcKeys.pairCheck = false;
        assertThatThrownBy(AsymmetricKeysTest::assertMismatchRefused).isInstanceOf(AssertionError.class);
    }

    private static void assertMismatchRefused() {
        byte[] point = HEX.parseHex(P256_POINT);
        byte[] x = Arrays.copyOfRange(point, 1, 33);
        byte[] y = Arrays.copyOfRange(point, 33, 65);
        assertThat(EcKeys.fromJwk("P-256", x, y, HEX.parseHex(P256_D)).isPrivate()).isTrue();
        byte[] otherD = HEX.parseHex(P256_D);
        otherD[31] ^= 1;
        assertThatThrownBy(() -> EcKeys.fromJwk("P-256", x, y, otherD)).isInstanceOf(CryptoError.class)
                .hasMessage("Invalid EC key in JSON Web Key.");
    }

    @Test
    void okpPublicKeysComeFromPrivateOnesAsInTheRfcs() {
        // RFC 8032 §7.1 test 1; RFC 7748 §6.1 (Alice)
        KeyHandle ed = OkpKeys.fromJwk("Ed25519", new byte[32], HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));
        assertThat(HEX.formatHex(ed.rawPublic())).isEqualTo("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
        assertThat(HEX.formatHex(OkpKeys.sign(ed, new byte[0]))).isEqualTo("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
        KeyHandle x = OkpKeys.fromJwk("X25519", new byte[32], HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"));
        assertThat(HEX.formatHex(x.rawPublic())).isEqualTo("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
        KeyHandle bob = OkpKeys.fromRaw("X25519", HEX.parseHex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"));
        assertThat(HEX.formatHex(OkpKeys.x25519(x, bob))).isEqualTo("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    }

    @Test
    void x25519RefusesASmallOrderPeer() {
        KeyHandle x = OkpKeys.generate("X25519");
        assertThatThrownBy(() -> OkpKeys.x25519(x, OkpKeys.fromRaw("X25519", new byte[32])))
                .isInstanceOf(CryptoError.class).hasMessageContaining("INVALID_PEER_KEY");
    }

    @Test
    void spkiOfAnUnknownKindOrWithTrailingBytesIsRefusedAsBoringSslDoes() {
        KeyHandle k = EcKeys.generate("P-384");
        byte[] spki = EcKeys.spki(k);
        assertThat(KeyFormats.spki(spki).curve()).isEqualTo("P-384");
        assertThatThrownBy(() -> KeyFormats.spki(Arrays.copyOf(spki, spki.length + 2)))
                .isInstanceOf(CryptoError.class).hasMessage("Invalid 2 trailing bytes after SPKI input.");
        assertThatThrownBy(() -> KeyFormats.spki(new byte[] {1, 2, 3})).isInstanceOf(CryptoError.class).hasMessage("Invalid SPKI input.");
    }
}
