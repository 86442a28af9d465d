package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Secret names, stored keys read back, the version in force, and the checks a push and a put make. */
class SecretNamesTest {
    private static final String V1 = "v-20261202T030000000Z-0a1b2c3d";
    private static final String V2 = "v-20261202T030000001Z-00000000";

    @Test
    void aNameIsABindingName() {
        for (String ok : List.of("API_KEY", "_x", "a1", "X".repeat(SecretNames.MAX_NAME))) {
            assertThat(SecretNames.problem(ok)).as(ok).isNull();
        }
        assertThat(SecretNames.problem("my-key")).isEqualTo(
                "secret name 'my-key' is not a valid binding name: letters, digits and _ only, not starting with a digit");
        for (String bad : List.of("1KEY", "a/b", "a.b", "a b", "é", "KEY\n", "$x")) {
            assertThat(SecretNames.problem(bad)).as(bad).contains("is not a valid binding name");
        }
        assertThat(SecretNames.problem("")).isEqualTo("a secret needs a name");
        assertThat(SecretNames.problem(null)).isEqualTo("a secret needs a name");
        assertThat(SecretNames.problem("X".repeat(SecretNames.MAX_NAME + 1))).contains("is longer than 256 characters");
        assertThat(SecretNames.problems(List.of("OK", "no-1", "no-2"))).hasSize(2);
    }

    @Test
    void theNewestVersionOfEachNameIsInForceAndOtherKeysAreIgnored() {
        List<String> keys = List.of(Keys.secret("w", "A", V1), Keys.secret("w", "A", V2), Keys.secret("w", "B", V1),
                Keys.secret("other", "C", V1), "secrets/w/A/not-a-version.json", "secrets/w/bad-name/" + V1 + ".json",
                "secrets/w/A/" + V1 + ".txt", "secrets/w/stray.json");
        assertThat(SecretNames.newest("w", keys)).containsExactly(Map.entry("A", V2), Map.entry("B", V1));
        assertThat(SecretNames.parse("w", Keys.secret("w", "A", V1))).isEqualTo(new SecretNames.Stored("A", V1));
        assertThat(SecretNames.parse("w", Keys.secret("w2", "A", V1))).as("another Worker's prefix").isNull();
        // a Worker name that is a prefix of another's never reads the other's keys (the prefix ends in '/')
        assertThat(SecretNames.newest("w", List.of(Keys.secret("w-2", "A", V1)))).isEmpty();
    }

    @Test
    void missingNamesEveryOneInOrderAndClashesNameEverySharedName() {
        assertThat(SecretNames.missing(List.of("A", "B", "C", "B"), List.of("B"))).containsExactly("A", "C");
        assertThat(SecretNames.missing(List.of("A"), List.of("A", "Z"))).isEmpty();
        assertThat(SecretNames.clashes(List.of("GREETING", "KV"), List.of("KV", "TOKEN", "GREETING"))).containsExactly("GREETING", "KV");
        assertThat(SecretNames.clashes(List.of("GREETING"), List.of("TOKEN"))).isEmpty();
    }

    @Test
    void versionsSortByTheTimeOfThePut() {
        assertThat(SecretNames.isVersion(V1)).isTrue();
        assertThat(SecretNames.isVersion("d-20261202T030000000Z-0a1b2c")).isFalse();
        assertThat(V1.compareTo(V2)).isNegative();
    }
}
