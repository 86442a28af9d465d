package dev.cellgate.js.graal.wpt;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Web Platform Tests subset (README, "Web Platform Tests subset"): each file of
 * wpt/subset.txt, with testharness.js and its META scripts, as one Worker; the Worker answers
 * the harness's results as JSON. Not part of CI: the class name ends in Run, which surefire's
 * default includes (Test*, *Test, *Tests, *TestCase) do not match, and it is skipped unless
 * -Dwpt.dir names a WPT checkout. Run it with wpt/run.sh.
 *
 * <p>Writes target/wpt/results.json (per file and subtest), target/wpt/summary.md (per area),
 * and target/wpt/bundles/&lt;file&gt;/: the generated module texts, which miniflare-run.mjs runs on
 * workerd unchanged.
 */
class WptSubsetRun {
    static final Path BASE = Path.of(System.getProperty("basedir", "."));
    static final Path OUT = BASE.resolve("target/wpt");
    static final Pattern META = Pattern.compile("^//\\s*META:\\s*(\\w+)=(.*)$");
    static final Pattern FETCHED = Pattern.compile("fetch\\(\\s*[\"'`]([^\"'`]+)[\"'`]");
    static final String[] STATUS = {"PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"};
    static final String[] HARNESS = {"OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"};
    /** The Worker's two modules: the ES main module (prelude, handler) and the classic scripts' CommonJS module. */
    static final String MAIN = "index.mjs";
    static final String BODY = "wpt-body.cjs";

    /** One test file as the subset lists it, with what its META lines say. */
    record WptFile(String path, List<String> scripts, Set<String> globals, boolean longTimeout, String title) {
        String area() {
            return path.substring(0, path.indexOf('/'));
        }

        /** As WPT's manifest reads META: global= (no line: window and dedicatedworker). */
        boolean runsInAWorker() {
            if (globals.isEmpty()) {
                return true;
            }
            for (String g : globals) {
                if (g.equals("worker") || g.equals("dedicatedworker") || g.equals("shadowrealm") || g.startsWith("dedicatedworker-")
                        || g.equals("jsshell")) {
                    return true;
                }
            }
            return false;
        }
    }

    @Test
    void runTheSubset() throws Exception {
        String dir = System.getProperty("wpt.dir", "");
        assumeTrue(!dir.isBlank(), "-Dwpt.dir=<a WPT checkout> runs the Web Platform Tests subset (wpt/run.sh)");
        Path wpt = Path.of(dir).toAbsolutePath();
        Set<String> areas = new LinkedHashSet<>();
        for (String a : System.getProperty("wpt.areas", "").split(",")) {
            if (!a.isBlank()) {
                areas.add(a.strip().replaceAll("/+$", ""));
            }
        }
        String only = System.getProperty("wpt.only", "");
        Files.createDirectories(OUT.resolve("bundles"));
        String prelude = Files.readString(BASE.resolve("wpt/prelude.js"));
        String harness = Files.readString(wpt.resolve("resources/testharness.js"));

        JsonArray results = new JsonArray();
        try (TestEngine engine = new TestEngine()) {
            for (String path : subset()) {
                if (!areas.isEmpty() && areas.stream().noneMatch(a -> path.startsWith(a + "/") || path.equals(a))) {
                    continue;
                }
                if (!only.isBlank() && !path.contains(only)) {
                    continue;
                }
                JsonObject r = runOne(engine, wpt, prelude, harness, path);
                results.add(r);
                System.out.println(line(r));
            }
        }
        Files.writeString(OUT.resolve("results.json"), results.encodePrettily());
        String summary = summary(results);
        Files.writeString(OUT.resolve("summary.md"), summary);
        System.out.println(summary);
    }

    static List<String> subset() throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(BASE.resolve("wpt/subset.txt"))) {
            String s = l.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                out.add(s);
            }
        }
        return out;
    }

    static WptFile parse(String path, String source) {
        List<String> scripts = new ArrayList<>();
        Set<String> globals = new LinkedHashSet<>();
        boolean longTimeout = false;
        String title = null;
        for (String l : source.split("\n")) {
            Matcher m = META.matcher(l.strip());
            if (!m.matches()) {
                if (l.isBlank() || l.startsWith("//")) {
                    continue;
                }
                break;
            }
            String value = m.group(2).strip();
            switch (m.group(1)) {
                case "script" -> scripts.add(value);
                case "global" -> Arrays.stream(value.split(",")).map(String::strip).forEach(globals::add);
                case "timeout" -> longTimeout = value.equals("long");
                case "title" -> title = value;
                default -> { }
            }
        }
        return new WptFile(path, scripts, globals, longTimeout, title);
    }

    /** A META script path: absolute from the WPT root, else relative to the test file. */
    static String resolve(String testPath, String script) {
        String s = script.replaceAll("[?#].*$", "");
        if (s.startsWith("/")) {
            return s.substring(1);
        }
        return Path.of(testPath).getParent().resolve(s).normalize().toString().replace('\\', '/');
    }

    static JsonObject runOne(TestEngine engine, Path wpt, String prelude, String harness, String path) {
        JsonObject r = new JsonObject().put("file", path).put("area", path.substring(0, path.indexOf('/')));
        try {
            String source = Files.readString(wpt.resolve(path));
            WptFile f = parse(path, source);
            if (!f.runsInAWorker()) {
                return r.put("skipped", "META: global=" + String.join(",", f.globals) + " has no worker scope");
            }
            String[] texts = module(wpt, prelude, harness, f, source);
            Path bundleDir = OUT.resolve("bundles").resolve(path.replace('/', '~'));
            Files.createDirectories(bundleDir);
            Files.writeString(bundleDir.resolve(MAIN), texts[0]);
            Files.writeString(bundleDir.resolve(BODY), texts[1]);
            r.put("bundle", OUT.relativize(bundleDir).toString());
            Map<String, BundleModule> files = new LinkedHashMap<>();
            files.put(MAIN, new BundleModule(ModuleType.ES_MODULE, texts[0].getBytes(StandardCharsets.UTF_8)));
            files.put(BODY, new BundleModule(ModuleType.COMMON_JS, texts[1].getBytes(StandardCharsets.UTF_8)));
            ScriptBundle bundle = ScriptBundle.of("wpt", "wpt", MAIN, files, Map.of(), Map.of(), "2025-04-01", List.of());
            long t0 = System.nanoTime();
            TestWorker w;
            try {
                w = engine.worker(bundle);
            } catch (Exception e) {
                return r.put("harness", new JsonObject().put("status", "ERROR").put("message", "load: " + e))
                        .put("tests", new JsonArray());
            }
            try {
                String json = w.text("http://wpt.test/" + path);
                JsonObject got;
                try {
                    got = new JsonObject(json);
                } catch (RuntimeException e) {
                    got = new JsonObject().put("harness", new JsonObject().put("status", 1).put("message", "not JSON: "
                            + json.substring(0, Math.min(300, json.length())))).put("tests", new JsonArray());
                }
                normalise(r, got);
            } catch (Exception e) {
                r.put("harness", new JsonObject().put("status", "ERROR").put("message", "fetch: " + rootCause(e)))
                        .put("tests", new JsonArray());
            } finally {
                r.put("wallMs", (System.nanoTime() - t0) / 1_000_000);
                try {
                    w.close();
                    w.script.close();
                } catch (Exception ignored) {
                    // best effort: the next file gets a new Worker either way
                }
            }
        } catch (IOException e) {
            r.put("harness", new JsonObject().put("status", "ERROR").put("message", "read: " + e)).put("tests", new JsonArray());
        }
        return r;
    }

    static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.toString();
    }

    /** Numeric testharness statuses to names, in place on {@code r}. */
    static void normalise(JsonObject r, JsonObject got) {
        JsonObject h = got.getJsonObject("harness", new JsonObject());
        Object hs = h.getValue("status");
        r.put("harness", new JsonObject().put("status", hs instanceof Number n ? HARNESS[n.intValue()] : String.valueOf(hs))
                .put("message", h.getValue("message")));
        JsonArray tests = new JsonArray();
        for (Object o : got.getJsonArray("tests", new JsonArray())) {
            JsonObject t = (JsonObject) o;
            Object s = t.getValue("status");
            tests.add(new JsonObject().put("name", t.getString("name"))
                    .put("status", s instanceof Number n ? STATUS[n.intValue()] : String.valueOf(s))
                    .put("message", t.getValue("message")));
        }
        r.put("tests", tests);
    }

    /**
     * The Worker's modules. [0], the ES main module: the prelude and the fetch handler. [1], a
     * CommonJS module whose export is __wptRun(): testharness.js, the reporter hook, the META
     * scripts and the test file, in order, in one function body. CommonJS, not ES, because WPT's
     * files are classic scripts and some rely on sloppy mode (an undeclared assignment in
     * WebCryptoAPI/util/helpers.js, for one); a CommonJS module's code is not strict, an ES
     * module's is. No eval: workerd disallows code generation from strings.
     */
    static String[] module(Path wpt, String prelude, String harness, WptFile f, String source) throws IOException {
        Map<String, String> data = new TreeMap<>();
        Matcher m = FETCHED.matcher(source);
        while (m.find()) {
            String rel = resolve(f.path(), m.group(1));
            Path p = wpt.resolve(rel);
            if (Files.isRegularFile(p)) {
                data.put(rel, Files.readString(p));
            }
        }
        StringBuilder b = new StringBuilder();
        b.append("// Generated by WptSubsetRun for ").append(f.path()).append(". WPT's own files are inlined in ").append(BODY)
                .append(", unchanged.\n");
        b.append("import __wptRun from './").append(BODY).append("';\n");
        b.append("const __WPT = { file: ").append(Json.encode(f.path()))
                .append(", title: ").append(f.title() == null ? "null" : Json.encode(f.title()))
                .append(", timeoutMs: ").append(f.longTimeout() ? 45_000 : 20_000)
                .append(", data: {");
        boolean first = true;
        for (Map.Entry<String, String> e : data.entrySet()) {
            b.append(first ? "" : ",").append("\n  ").append(Json.encode(e.getKey())).append(": ").append(Json.encode(e.getValue()));
            first = false;
        }
        b.append("} };\n\n").append(prelude).append("\n");
        b.append("export default { fetch(request) { __wptSetupGlobals(); return __wptServe(__wptRun); } };\n");

        StringBuilder c = new StringBuilder();
        c.append("// Generated by WptSubsetRun for ").append(f.path()).append(": WPT's classic scripts, unchanged, in order.\n");
        c.append("module.exports = function __wptRun() {\n");
        c.append("// ---- resources/testharness.js\n").append(harness).append("\n;\nglobalThis.__wptAttachReporter();\n");
        for (String s : f.scripts()) {
            String rel = resolve(f.path(), s);
            c.append("// ---- META script ").append(rel).append("\n").append(Files.readString(wpt.resolve(rel))).append("\n;\n");
        }
        c.append("// ---- ").append(f.path()).append("\n").append(source).append("\n};\n");
        return new String[] {b.toString(), c.toString()};
    }

    static String line(JsonObject r) {
        if (r.containsKey("skipped")) {
            return String.format("%-60s skipped: %s", r.getString("file"), r.getString("skipped"));
        }
        int[] c = counts(r);
        return String.format("%-60s %4d/%-4d pass  %3d fail  %3d timeout  harness %s%s", r.getString("file"), c[0], c[0] + c[1] + c[2] + c[3],
                c[1], c[2], r.getJsonObject("harness").getString("status"),
                "OK".equals(r.getJsonObject("harness").getString("status")) ? ""
                        : " (" + abbreviate(String.valueOf(r.getJsonObject("harness").getValue("message")), 160) + ")");
    }

    static String abbreviate(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 1) + "…";
    }

    /** pass, fail (FAIL, PRECONDITION_FAILED), timeout (TIMEOUT), notrun. */
    static int[] counts(JsonObject r) {
        int[] c = new int[4];
        for (Object o : r.getJsonArray("tests", new JsonArray())) {
            switch (((JsonObject) o).getString("status")) {
                case "PASS" -> c[0]++;
                case "TIMEOUT" -> c[2]++;
                case "NOTRUN" -> c[3]++;
                default -> c[1]++;
            }
        }
        return c;
    }

    static String summary(JsonArray results) {
        Map<String, long[]> byArea = new TreeMap<>();
        long[] all = new long[7];
        for (Object o : results) {
            JsonObject r = (JsonObject) o;
            if (r.containsKey("skipped")) {
                continue;
            }
            long[] a = byArea.computeIfAbsent(r.getString("area"), k -> new long[7]);
            int[] c = counts(r);
            boolean harnessError = !"OK".equals(r.getJsonObject("harness").getString("status"));
            long[] add = {1, c[0], c[1], c[2], c[3], harnessError ? 1 : 0, c[0] + c[1] + c[2] + c[3]};
            for (int i = 0; i < 7; i++) {
                a[i] += add[i];
                all[i] += add[i];
            }
        }
        StringBuilder b = new StringBuilder("| area | files | subtests | passed | failed | timed out | not run | harness errors | pass rate |\n");
        b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        Map<String, long[]> rows = new LinkedHashMap<>(byArea);
        rows.put("**all**", all);
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            long[] a = e.getValue();
            b.append(String.format("| %s | %d | %d | %d | %d | %d | %d | %d | %s |%n", e.getKey(), a[0], a[6], a[1], a[2], a[3], a[4], a[5],
                    a[6] == 0 ? "-" : String.format("%.1f%%", 100.0 * a[1] / a[6])));
        }
        return b.toString();
    }
}
