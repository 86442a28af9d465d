package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CompatibilityFlagsTest {

    @Test
    void theRuntimeGroupIsTheFlagsTheJavaScriptRuntimeReads() {
        assertThat(CompatibilityFlags.runtimeFlags()).containsExactlyInAnyOrder(
                "delete_all_deletes_alarm", "delete_all_preserves_alarm",
                "strict_compression_checks", "no_strict_compression_checks",
                "enable_navigator_language", "disable_navigator_language",
                "enable_ctx_exports", "disable_ctx_exports",
                "expose_global_message_channel", "no_expose_global_message_channel");
    }

    @Test
    void everyFlagComesWithItsOppositeAndNoFlagIsInTwoPairs() {
        List<String> all = new ArrayList<>();
        for (CompatibilityFlags.Pair p : CompatibilityFlags.pairs()) {
            assertThat(p.on()).isNotEqualTo(p.off());
            all.add(p.on());
            all.add(p.off());
        }
        assertThat(all).doesNotHaveDuplicates();
        assertThat(CompatibilityFlags.actedOn()).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void notActedOnNamesTheOthersInInputOrderOnceEach() {
        assertThat(CompatibilityFlags.notActedOn(List.of("nodejs_compatt", "nodejs_compat", "streams_enable_constructors",
                "delete_all_deletes_alarm", "nodejs_compatt", "enable_nodejs_fs_module")))
                .containsExactly("nodejs_compatt", "streams_enable_constructors");
        assertThat(CompatibilityFlags.notActedOn(List.of())).isEmpty();
        assertThat(CompatibilityFlags.notActedOn(List.of("nodejs_compat", "no_nodejs_compat_v2", "nodejs_als"))).isEmpty();
    }

    /** Everything NodeCompat decides, for one date and flag list: a flag NodeCompat acts on changes it somewhere. */
    private static String decisions(String date, List<String> flags) {
        NodeCompat n = NodeCompat.of(date, flags);
        StringBuilder out = new StringBuilder().append(n.nodejsCompat()).append(n.v2()).append(n.asyncLocalStorage())
                .append(n.populateProcessEnv()).append(n.processV2()).append(n.globalTimers());
        Set<String> modules = new TreeSet<>(NodeCompat.BASE);
        modules.addAll(NodeCompat.GATED.keySet());
        modules.add("sys");
        for (String m : modules) {
            out.append(' ').append(m).append('=').append(n.availability(m)).append(n.resolve(m));
        }
        return out.toString();
    }

    private static final List<String> DATES = List.of("2000-01-01", "2030-01-01");
    private static final List<List<String>> BASES = List.of(List.of(), List.of("nodejs_compat"), List.of("nodejs_als"),
            List.of("nodejs_compat_v2"));

    private static boolean changesNodeCompat(String flag) {
        for (String date : DATES) {
            for (List<String> base : BASES) {
                List<String> with = new ArrayList<>(base);
                with.add(flag);
                if (!decisions(date, base).equals(decisions(date, with))) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void everyNodeFlagInTheSetChangesWhatNodeCompatDecides() {
        assertThat(CompatibilityFlags.nodeFlags()).isNotEmpty()
                .allSatisfy(f -> assertThat(changesNodeCompat(f)).as(f + " changes a NodeCompat decision").isTrue());
        // the control: a flag NodeCompat does not read changes nothing, so the check above can fail
        assertThat(changesNodeCompat("streams_enable_constructors")).isFalse();
        assertThat(changesNodeCompat("nodejs_compatt")).isFalse();
    }

    @Test
    void everyNodeFlagNodeCompatNamesIsInTheSet() throws IOException {
        String source = Files.readString(Path.of("src/main/java/dev/cellgate/core/logic/NodeCompat.java"));
        Matcher m = Pattern.compile("\"((?:enable_|disable_|no_)?nodejs_[a-z0-9_]+)\"").matcher(source);
        Set<String> named = new TreeSet<>();
        while (m.find()) {
            named.add(m.group(1));
        }
        assertThat(named).hasSizeGreaterThan(20);
        assertThat(CompatibilityFlags.nodeFlags()).containsExactlyInAnyOrderElementsOf(named);
    }

    /** docs/configuration.md's tables name every flag acted on, and no other: what the push's refusal points to. */
    @Test
    void theDocsListExactlyTheFlagsActedOn() throws IOException {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        int from = doc.indexOf("## Compatibility flags");
        assertThat(from).isNotNegative();
        int to = doc.indexOf("\n## ", from + 1);
        Set<String> listed = new TreeSet<>();
        for (String line : doc.substring(from, to < 0 ? doc.length() : to).split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length > 3 && cells[1].trim().matches("`[a-z0-9_]+`")) {
                listed.add(cells[1].trim().replace("`", ""));
                listed.add(cells[2].trim().replace("`", ""));
            }
        }
        assertThat(listed).containsExactlyInAnyOrderElementsOf(CompatibilityFlags.actedOn());
    }
}
