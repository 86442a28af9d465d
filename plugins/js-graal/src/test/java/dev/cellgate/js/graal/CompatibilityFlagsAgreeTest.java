package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.CompatibilityFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The flags the JavaScript runtime reads are exactly CompatibilityFlags' RUNTIME group: a flag read
 * by dispatch.js but missing from the list would be refused at push although it works, and a flag in
 * the list that dispatch.js no longer reads would be accepted and ignored.
 */
class CompatibilityFlagsAgreeTest {
    private static final Path RUNTIME = Path.of("src/main/resources/cellgate/runtime");
    private static final Pattern READ = Pattern.compile("flags\\.includes\\('([a-z0-9_]+)'\\)");

    @Test
    void theFlagsDispatchJsReadsAreTheRuntimeGroup() throws IOException {
        Matcher m = READ.matcher(Files.readString(RUNTIME.resolve("dispatch.js")));
        Set<String> read = new TreeSet<>();
        while (m.find()) {
            read.add(m.group(1));
        }
        assertThat(read).hasSizeGreaterThanOrEqualTo(10);
        assertThat(read).containsExactlyInAnyOrderElementsOf(CompatibilityFlags.runtimeFlags());
    }

    /** The scan above covers every flag the runtime reads only while dispatch.js alone sees the flag list. */
    @Test
    void onlyDispatchJsSeesTheFlagList() throws IOException {
        Set<String> seeing = new TreeSet<>();
        try (Stream<Path> files = Files.walk(RUNTIME)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".js")).toList()) {
                if (Files.readString(f).contains("compatibilityFlags")) {
                    seeing.add(RUNTIME.relativize(f).toString());
                }
            }
        }
        assertThat(seeing).containsExactly("dispatch.js");
    }
}
