package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.NpmTools;
import dev.cellgate.deploy.cli.CommandException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .assetsignore} against the reference: for each fixture directory, node with the
 * {@code ignore@5.3.1} package Wrangler 4.86.0 bundles (and Wrangler's pattern list and readdir,
 * replicated in {@code assets/wrangler-assets-ignore.mjs}) says which files Wrangler would upload
 * and whether it would refuse a {@code _worker.js}; {@link AssetsDirectory#scan} must upload exactly
 * those files and refuse exactly then.
 */
class AssetsIgnoreDifferentialTest {
    /** Every gitignore corner named in the brief, one line each; lines end in "\n" only unless a case says. */
    static final List<String> TRICKY = List.of(
            "# a comment line",
            "\\#hash.txt",                 // an escaped '#': the file "#hash.txt"
            "\\!bang.txt",                 // an escaped '!': the file "!bang.txt"
            "*.log",
            "!keep.log",                   // a negation re-includes, at any depth
            "secret/",                     // dir-only: the directory and all under it
            "!secret/allowed.txt",         // a negation under an ignored directory does not re-include
            "/root-only.txt",              // a leading slash anchors to the assets root
            "docs/**/draft.md",            // '/**/' is zero or more directories
            "**/tmp",                      // a leading '**/' matches at any depth
            "build/**",                    // a trailing '/**' is everything inside, not build itself
            "!build/keep.js",
            "*.BAK",                       // ignore@5 matches case-insensitively
            "trailing.txt   ",             // trailing spaces are dropped
            "escaped\\ ",                  // ... unless escaped: the file "escaped "
            "dir-only/",                   // a dir-only rule never names a file of that name
            "a/*/c.txt",                   // a middle slash anchors; '*' is one segment
            "[ab]x.txt",
            "?.q",
            "nested/*",
            "!nested/inner.txt",
            "foo/bar",
            "deep/**/",
            "!important/",
            "Caps/",
            "  leading-space.txt",         // leading spaces are part of the name
            "name-with-\\*star",           // an escaped '*' is a literal star
            "end\\",                       // a single trailing backslash: an invalid line, dropped
            "\\#notcomment",
            "!#notcomment",                // '!' then '#': a negation of the file "#notcomment", not a comment
            "ŜPECIAL.txt",
            "   ",                         // a blank line
            "",
            "z*z",
            "**/*.map",
            "a**b",                        // '**' inside a segment is a plain '*'
            "sub/_headers");

    static final List<String> TRICKY_FILES = List.of(
            "index.html", ".hidden", "_worker.js", "sub/_worker.js", "_redirects", "_headers", "_Headers2", "sub/_redirects",
            "sub/_headers", "sub/.assetsignore", "#hash.txt", "hash.txt", "!bang.txt", "bang.txt",
            "a.log", "keep.log", "sub/b.log", "sub/keep.log", "logs.log/inner.txt",
            "secret/x.txt", "secret/allowed.txt", "sub/secret/y.txt", "secretive.txt",
            "root-only.txt", "sub/root-only.txt",
            "docs/draft.md", "docs/a/b/draft.md", "docs/a/other.md", "other/docs/draft.md",
            "tmp/x.txt", "a/tmp/y.txt", "b/tmp", "tmpfile",
            "build/out.js", "build/keep.js", "build/sub/x.js", "build.js",
            "old.bak", "OLD.BAK", "notes.Bak",
            "trailing.txt", "trailing.txt ", "escaped ", "escaped",
            "dir-only", "x/dir-only/f.txt",
            "a/b/c.txt", "a/b/d/c.txt", "a/c.txt", "q/a/b/c.txt",
            "ax.txt", "bx.txt", "cx.txt", "Ax.txt",
            "1.q", "12.q", "sub/2.q",
            "nested/inner.txt", "nested/other.txt", "nested/deeper/inner.txt",
            "foo/bar", "x/foo/bar", "foobar",
            "deep/x.txt", "deep/a/b.txt",
            "important/x.txt", "caps/x.txt", "Caps/y.txt", "caps.txt",
            "  leading-space.txt", "leading-space.txt",
            "name-with-*star", "name-with-Xstar", "end", "end\\x",
            "#notcomment", "ŝpecial.txt", "Ŝpecial.txt",
            "zoz", "z/z", "app.js.map", "js/app.js.map", "aXXb", "a-b");

    /** Where ignore@5 reads a line unlike git: each is a difference cellgate must follow. */
    static final List<String> MORE = List.of(
            "slash/ ",                     // a space after the slash: ignore@5 anchors it to the root
            "!!double.txt",                // one '!' negates, the second is literal
            "*.tab\t",                    // a trailing tab is trailing whitespace
            "nbsp.txt\u00A0",             // so is a no-break space (JavaScript's \s)
            "\\ lead.txt",               // an escaped leading space
            "sub/**/*.css",
            "/*.root",
            "*/mid.txt",
            "unclosed[abc",
            "rev[z-a].txt",
            "q\\?.txt",                  // an escaped '?'
            "lit\\x.txt",                // an escaped ordinary character
            "ÄRGER.txt",
            "*.TXT2",
            "**/deepname");

    static final List<String> MORE_FILES = List.of(
            "index.html", "slash/a.txt", "sub/slash/b.txt", "double.txt", "!double.txt", "a.tab", "nbsp.txt",
            " lead.txt", "lead.txt", "sub/a.css", "sub/x/y/b.css", "c.css", "a.root", "sub/b.root",
            "x/mid.txt", "x/y/mid.txt", "mid.txt", "unclosed[abc", "unclosedb", "reva.txt", "revz.txt", "rev-.txt",
            "q?.txt", "qa.txt", "litx.txt", "ärger.txt", "README.Txt2", "a/b/c/deepname/f.txt");

    @TempDir
    Path tmp;

    record Case(String name, String ignoreFile, List<String> files) {
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("tricky", String.join("\n", TRICKY) + "\n", TRICKY_FILES));
        // Windows line ends: Wrangler splits on "\n" only, so each pattern keeps a "\r"
        cases.add(new Case("crlf", String.join("\r\n", TRICKY) + "\r\n", TRICKY_FILES));
        cases.add(new Case("more-corners", String.join("\n", MORE) + "\n", MORE_FILES));
        cases.add(new Case("no-final-newline", "*.txt\n!keep.txt", List.of("a.txt", "keep.txt", "sub/keep.txt", "b.html")));
        cases.add(new Case("star-then-negations", "*\n!*.html\n!*/\n", List.of("index.html", "a.css", "sub/page.html", "sub/x.js")));
        cases.add(new Case("double-star", "**\n!keep/\n", List.of("index.html", "sub/a.css", "keep/a.css")));
        cases.add(new Case("everything", "*\n", List.of("index.html", "sub/a.css", "_worker.js")));
        cases.add(new Case("lone-bang", "*.txt\n!\n", List.of("a.txt", "_redirects", "_headers", "b.html")));
        cases.add(new Case("case-of-defaults", null, List.of("index.html", "_REDIRECTS", "_Headers", ".ASSETSIGNORE", "sub/_redirects")));
        cases.add(new Case("bom", "\uFEFF*.txt\n", List.of("a.txt", "b.html")));
        cases.add(new Case("ranges", "[a-c]*.css\n[!a]*.js\n[^b]*.md\n", List.of("a.css", "d.css", "a.js", "b.js", "a.md", "b.md")));
        cases.add(new Case("worker-js-ignored", "_worker.js\n", List.of("index.html", "_worker.js")));
        cases.add(new Case("worker-js-dir-ignored", "_worker.js\n", List.of("index.html", "_worker.js/index.js", "_worker.js/lib/a.js")));
        cases.add(new Case("worker-js-empty-ignore-file", "", List.of("index.html", "_worker.js", "sub/_worker.js")));
        cases.add(new Case("worker-js-file-refused", null, List.of("index.html", "_worker.js")));
        cases.add(new Case("worker-js-dir-refused", null, List.of("index.html", "_worker.js/index.js")));
        cases.add(new Case("worker-js-prefix-refused", null, List.of("index.html", "_worker.json")));
        cases.add(new Case("worker-js-nested-allowed", null, List.of("index.html", "sub/_worker.js")));
        return cases;
    }

    static Path ignorePackage() {
        return NpmTools.require("node_modules/ignore/index.js", "the ignore package");
    }

    /** Per directory: what Wrangler would upload, or the kind of _worker.js it refuses. */
    JsonObject onWrangler(Path ignore, List<Path> dirs) throws Exception {
        Path script = tmp.resolve("wrangler-assets-ignore.mjs");
        try (InputStream in = AssetsIgnoreDifferentialTest.class.getResourceAsStream("/assets/wrangler-assets-ignore.mjs")) {
            Files.write(script, in.readAllBytes());
        }
        Path job = tmp.resolve("job.json");
        Files.writeString(job, new JsonArray(dirs.stream().map(Path::toString).toList()).encode());
        Path out = tmp.resolve("wrangler.json");
        Path log = tmp.resolve("node.log");
        Process p = new ProcessBuilder("node", script.toString(), ignore.toString(), job.toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        return new JsonObject(Files.readString(out));
    }

    /** Where cellgate's scan differs from Wrangler's upload, one line per case; empty when they agree. */
    List<String> differencesFromWrangler() throws Exception {
        Path ignore = ignorePackage();
        Path root = Files.createTempDirectory(tmp, "fixtures");
        Map<Path, Case> dirs = new LinkedHashMap<>();
        for (Case c : cases()) {
            Path dir = root.resolve(c.name());
            for (String f : c.files()) {
                Path file = dir.resolve(f);
                Files.createDirectories(file.getParent());
                Files.writeString(file, "file " + f);
            }
            if (c.ignoreFile() != null) {
                Files.writeString(dir.resolve(".assetsignore"), c.ignoreFile(), StandardCharsets.UTF_8);
            }
            dirs.put(dir, c);
        }
        JsonObject wrangler = onWrangler(ignore, List.copyOf(dirs.keySet()));
        List<String> refusedByWrangler = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        for (var e : dirs.entrySet()) {
            String name = e.getValue().name();
            JsonObject want = wrangler.getJsonObject(e.getKey().toString());
            String workerJs = want.getString("workerJs");
            if (workerJs != null) {
                refusedByWrangler.add(name);
            }
            AssetsDirectory scanned;
            try {
                scanned = AssetsDirectory.scan(e.getKey(), note -> { });
            } catch (CommandException refused) {
                if (workerJs == null || !refused.getMessage().contains("_worker.js " + workerJs) || !refused.getMessage().contains(".assetsignore")) {
                    differences.add(name + ": Wrangler " + (workerJs == null ? "uploads" : "refuses a _worker.js " + workerJs)
                            + ", cellgate refuses: " + refused.getMessage());
                }
                continue;
            }
            if (workerJs != null) {
                differences.add(name + ": Wrangler refuses a _worker.js " + workerJs + ", cellgate uploads " + scanned.files().keySet());
                continue;
            }
            TreeSet<String> wanted = new TreeSet<>(want.getJsonArray("uploaded").stream().map(String.class::cast).toList());
            TreeSet<String> got = new TreeSet<>(scanned.files().keySet());
            if (name.equals("tricky")) {
                assertThat(wanted.size()).as("the reference both uploads and leaves out files").isBetween(1, TRICKY_FILES.size() - 10);
            }
            TreeSet<String> onlyWrangler = new TreeSet<>(wanted);
            onlyWrangler.removeAll(got);
            TreeSet<String> onlyCellgate = new TreeSet<>(got);
            onlyCellgate.removeAll(wanted);
            if (!onlyWrangler.isEmpty() || !onlyCellgate.isEmpty()) {
                differences.add(name + ": uploaded by Wrangler only " + onlyWrangler + ", by cellgate only " + onlyCellgate);
            }
        }
        assertThat(refusedByWrangler).as("the reference refused the _worker.js cases, and only those")
                .containsExactly("worker-js-file-refused", "worker-js-dir-refused", "worker-js-prefix-refused");
        return differences;
    }

    @Test
    void cellgateUploadsExactlyTheFilesWranglerWould() throws Exception {
        assertThat(differencesFromWrangler()).as("where cellgate's upload differs from Wrangler's").isEmpty();
    }

    @Test
    void theBrokenVariantThatReadsTheFileAsPlainGitIsCaught() throws Exception {
        AssetsIgnore.brokenReadAsPlainGit = true;
        try {
            assertThat(String.join("\n", differencesFromWrangler()))
                    .contains("tricky: uploaded by Wrangler only").contains("/OLD.BAK")   // case
                    .contains("crlf: uploaded by Wrangler only")                           // the "\r" kept on each line
                    .contains("ranges: uploaded by Wrangler only");                        // [!a] as a negation
        } finally {
            AssetsIgnore.brokenReadAsPlainGit = false;
        }
    }

    @Test
    void theBrokenVariantThatUploadsAWorkerJsIsCaught() throws Exception {
        AssetsDirectory.brokenUploadWorkerJs = true;
        try {
            assertThat(differencesFromWrangler())
                    .anyMatch(d -> d.startsWith("worker-js-file-refused: Wrangler refuses a _worker.js file, cellgate uploads"))
                    .anyMatch(d -> d.startsWith("worker-js-dir-refused: Wrangler refuses a _worker.js directory, cellgate uploads"));
        } finally {
            AssetsDirectory.brokenUploadWorkerJs = false;
        }
    }
}
