package dev.cellgate.js.graal.host.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** AES modes beyond what the JCA offers directly: short GCM tags and WebCrypto's counter lengths. */
class AesCiphersTest {
    private static final byte[] KEY = new byte[16];
    private static final byte[] IV = new byte[12];
    private static final byte[] AAD = {1, 2, 3};
    private static final byte[] PLAIN = "a short GCM tag still authenticates".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    @AfterEach
    void restore() {
        AesCiphers.shortTagCheck = true;
    }

    @Test
    void aShortTagIsTheStartOfTheFullTag() {
        byte[] full = AesCiphers.gcm(true, KEY, IV, AAD, 128, PLAIN);
        for (int bits : new int[] {32, 64}) {
            byte[] shortTag = AesCiphers.gcm(true, KEY, IV, AAD, bits, PLAIN);
            assertThat(shortTag).isEqualTo(Arrays.copyOf(full, PLAIN.length + bits / 8));
            assertThat(AesCiphers.gcm(false, KEY, IV, AAD, bits, shortTag)).isEqualTo(PLAIN);
        }
    }

    @Test
    void aTamperedCiphertextOrTagWithAShortTagIsRefused() {
        assertTamperingIsRefused();
    }

    /** The negative control: with the tag comparison switched off, the same test must see tampering go through. */
    @Test
    void theTamperTestSeesAMissingTagCheck() {
        AesCiphers.shortTagCheck = false;
        byte[] c = AesCiphers.gcm(true, KEY, IV, AAD, 64, PLAIN);
        c[0] ^= 1;
        assertThatCode(() -> AesCiphers.gcm(false, KEY, IV, AAD, 64, c)).doesNotThrowAnyException();
        assertThatThrownBy(AesCiphersTest::assertTamperingIsRefused).isInstanceOf(AssertionError.class);
    }

    private static void assertTamperingIsRefused() {
        for (int flip : new int[] {0, PLAIN.length - 1, PLAIN.length, PLAIN.length + 7}) {
            byte[] c = AesCiphers.gcm(true, KEY, IV, AAD, 64, PLAIN);
            c[flip] ^= 1;
            assertThatThrownBy(() -> AesCiphers.gcm(false, KEY, IV, AAD, 64, c)).as("flipped byte " + flip)
                    .isInstanceOf(CryptoError.class).hasMessageContaining("Decryption failed.");
        }
        byte[] c = AesCiphers.gcm(true, KEY, IV, AAD, 32, PLAIN);
        assertThatThrownBy(() -> AesCiphers.gcm(false, KEY, IV, new byte[] {9}, 32, c)).as("other additional data")
                .isInstanceOf(CryptoError.class);
    }

    @Test
    void ctrWrapsWithinItsCounterBitsAndRefusesToRepeat() {
        byte[] counter = new byte[16];
        Arrays.fill(counter, (byte) 0xff);
        byte[] data = new byte[48];
        // 8 counter bits at 0xff: block 1 uses ...ff, blocks 2 and 3 use ...00 and ...01 (the other bits unchanged)
        byte[] out = AesCiphers.ctr(KEY, counter, 8, data);
        byte[] wrapped = counter.clone();
        wrapped[15] = 0;
        byte[] second = AesCiphers.ctr(KEY, wrapped, 8, new byte[32]);
        assertThat(Arrays.copyOfRange(out, 16, 48)).isEqualTo(second);
        assertThatThrownBy(() -> AesCiphers.ctr(KEY, counter, 1, new byte[33]))
                .isInstanceOf(CryptoError.class).hasMessage("Counter block values will repeat.");
    }
}
