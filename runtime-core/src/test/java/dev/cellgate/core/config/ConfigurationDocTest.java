package dev.cellgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md lists every setting a node knows, with its node.json key. */
class ConfigurationDocTest {
    @Test
    void everySettingIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        for (Setting s : Settings.ALL) {
            assertThat(doc).as(s.env()).contains("`" + s.env() + "`").contains("`" + s.key() + "`");
        }
    }
}
