package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.deploy.ToolRun;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every key of Wrangler's schema is in exactly one class, docs/configuration.md shows the same
 * table, and each class does what it says when a config uses the key.
 */
class WranglerKeysTest {

    static Set<String> schemaKeys() throws IOException {
        try (InputStream in = WranglerKeysTest.class.getResourceAsStream("/wrangler/schema-keys-4.86.0.txt")) {
            Set<String> keys = new TreeSet<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    keys.add(line.strip());
                }
            }
            return keys;
        }
    }

    @Test
    void everySchemaKeyHasExactlyOneClassAndNoneIsInvented() throws IOException {
        Set<String> extra = new TreeSet<>(WranglerKeys.all().keySet());
        extra.removeAll(schemaKeys());
        assertThat(WranglerKeys.all().keySet()).containsAll(schemaKeys());
        // zone_id left Wrangler's schema, but SPEC §14 names it and older projects still carry it
        assertThat(extra).containsExactly("zone_id");
        WranglerKeys.all().values().forEach(k -> assertThat(k.reason()).as(k.name()).isNotBlank());
    }

    @Test
    void theDocsTableListsEveryKeyWithItsClassAndReason() throws IOException {
        String doc = Files.readString(ToolRun.repoRoot().resolve("docs/configuration.md"));
        for (WranglerKeys.Key k : WranglerKeys.all().values()) {
            String row = "| `" + k.name() + "` | " + DocsTable.className(k.keyClass()) + " | " + DocsTable.scope(k.scope()) + " | "
                    + k.reason() + " |";
            assertThat(doc).as("docs/configuration.md row for " + k.name()).contains(row);
        }
    }

    @Test
    void eachRefusedKeyIsRefusedByNameWithItsReason() {
        for (WranglerKeys.Key k : WranglerKeys.all().values()) {
            if (k.keyClass() == WranglerKeys.KeyClass.REFUSED) {
                assertThatThrownBy(() -> WranglerConfig.parse(new JsonObject().put(k.name(), new JsonObject().put("x", 1)), "w.json"))
                        .as(k.name()).hasMessageContaining("key \"" + k.name() + "\" is not supported by cellgate: " + k.reason());
            }
        }
    }

    @Test
    void eachMetadataKeyIsAcceptedRecordedAndNotedOnce() {
        for (WranglerKeys.Key k : WranglerKeys.all().values()) {
            if (k.keyClass() == WranglerKeys.KeyClass.METADATA) {
                WranglerConfig c = WranglerConfig.parse(new JsonObject().put(k.name(), "v"), "w.json");
                assertThat(c.hosting().getValue(k.name())).as(k.name()).isEqualTo("v");
                assertThat(c.notes()).as(k.name())
                        .isEqualTo(List.of("note: " + k.name() + " has no effect on a self-hosted fleet (" + k.reason() + ")"));
            }
        }
    }
}
