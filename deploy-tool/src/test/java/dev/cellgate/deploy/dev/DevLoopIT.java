package dev.cellgate.deploy.dev;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool dev} as a developer runs it: the wrapper over the packaged jar, on a copy of
 * examples/counter, a real node (gateway.jar) underneath, real edits of the source file, Ctrl-C
 * (SIGINT) to stop. What it proves: a saved change answers within {@link #RELOAD_BOUND_MS}; a
 * Durable Object's storage survives reloads and restarts of dev, and {@code --clean} drops it; a
 * broken save is reported and the previous code keeps answering; requests and console output are
 * printed; nothing listens beyond 127.0.0.1; SIGINT stops dev and its node with exit 0.
 */
class DevLoopIT {
    static final long RELOAD_BOUND_MS = 1_000;
    private static final Path WRAPPER = ToolRun.repoRoot().resolve("deploy-tool/deploy-tool");
    private static final Pattern READY = Pattern.compile("\\[dev] ready on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final String ORIGINAL = "return new Response(String(op === \"get\" ? this.read() : this.increment()));";

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void savedChangesAnswerWithinASecondAndDurableObjectStateOutlivesReloadsUntilClean() throws Exception {
        assertThat(ToolRun.repoRoot().resolve("gateway/target/gateway.jar")).as("mvn package built the node").exists();
        Path project = copyOfCounter();
        Path source = project.resolve("src/index.js");

        Dev dev = start(project);
        assertThat(await(dev, "/sql/it")).isEqualTo("1");
        assertThat(get(dev, "/sql/it")).isEqualTo("2");

        // 1. an edit of the Durable Object's code answers within the bound, on the storage it had
        List<Long> reloads = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            String tag = "edit" + i;
            String code = Files.readString(source).replaceFirst(
                    "return new Response\\((\"edit\\d+ \" \\+ )?String\\(op", "console.log(\"served " + tag + "\"); return new Response(\"" + tag + " \" + String(op");
            assertThat(code).contains(tag);
            long ms = saveAndAwait(dev, source, code, "/sql/it?op=get", tag + " ");
            reloads.add(ms);
            assertThat(get(dev, "/sql/it?op=get")).as("the counter kept its value across reload %d", i).isEqualTo(tag + " 2");
        }
        System.out.println("dev reloads (save to new answer, ms): " + reloads + "\n" + dev.out());
        assertThat(reloads).as("every reload, cold ones included").allMatch(ms -> ms <= 5 * RELOAD_BOUND_MS);

        // 2. a broken save is printed and the previous code keeps answering
        String good = Files.readString(source);
        Files.writeString(source, good + "\nthis is not JavaScript (\n");
        awaitOutput(dev, "[dev] error: ");
        assertThat(dev.out()).contains("esbuild could not bundle");
        assertThat(get(dev, "/sql/it?op=get")).isEqualTo("edit4 2");
        Files.writeString(source, good.replace("edit4 ", "fixed "));
        awaitAnswer(dev, "/sql/it?op=get", "fixed 2", 10_000);
        // a bad config too: refused by name, nothing published
        Path config = project.resolve("wrangler.jsonc");
        String goodConfig = Files.readString(config);
        Files.writeString(config, goodConfig.replaceFirst("\\{", "{ \"not_a_wrangler_key\": 1,"));
        awaitOutput(dev, "not_a_wrangler_key");
        assertThat(get(dev, "/sql/it?op=get")).isEqualTo("fixed 2");
        int deployed = count(dev.out(), "ms to bundle and publish)");
        Files.writeString(config, goodConfig);
        awaitCount(dev, "ms to bundle and publish)", deployed + 1);

        // 3. requests and the Worker's console output are printed, without colour when stdout is not a terminal
        awaitOutput(dev, "GET /sql/it?op=get 200");
        assertThat(dev.out()).contains("  log served edit4").doesNotContain("\u001b[");

        // 4. nothing beyond loopback: every listening socket of dev and its node is on 127.0.0.1
        List<String> listening = ListeningSockets.of(dev.process.toHandle());
        assertThat(listening).as("listening sockets of dev and its node").isNotEmpty()
                .allMatch(a -> a.startsWith("127.0.0.1:") || a.startsWith("[::1]:"));

        // 5. Ctrl-C stops dev and the node with it, cleanly
        stop(dev);

        // 6. a new run keeps the Durable Object's storage; --clean drops it
        Dev again = start(project);
        assertThat(await(again, "/sql/it?op=get")).isEqualTo("fixed 2");
        stop(again);
        Dev clean = start(project, "--clean");
        assertThat(clean.out()).contains("--clean: removed");
        assertThat(await(clean, "/sql/it?op=get")).isEqualTo("fixed 0");
        assertThat(get(clean, "/sql/it")).isEqualTo("fixed 1");
        stop(clean);

        // last, so that everything above is proved whatever the box's load: the bound of a developer's loop.
        // The first reload runs while both JVMs are still cold; the bound is for the ones after it.
        List<Long> warm = reloads.subList(1, reloads.size()).stream().sorted().toList();
        assertThat(warm.get(warm.size() / 2)).as("median of the warm reloads %s (all: %s)", warm, reloads).isLessThanOrEqualTo(RELOAD_BOUND_MS);
    }

    private Path copyOfCounter() throws IOException {
        Path from = ToolRun.repoRoot().resolve("examples/counter");
        Path to = tmp.resolve("counter");
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        assertThat(Files.readString(to.resolve("src/index.js"))).contains(ORIGINAL);
        return to;
    }

    record Dev(Process process, Path output, int port, Path project) {
        Path nodeLog() {
            return project.resolve(".cellgate/dev/node.log");
        }

        String out() {
            try {
                return Files.readString(output);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private Dev start(Path project, String... extra) throws Exception {
        Path out = tmp.resolve("dev-" + started.size() + ".txt");
        // env --default-signal: a test JVM started in the background may ignore SIGINT, and its children would inherit that
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT", WRAPPER.toString(), "dev", project.toString(),
                "--port", "0"));
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_") || k.startsWith("DEPLOY_TOOL_"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("CELLD_ESBUILD", esbuild().toString());
        Process p = pb.start();
        started.add(p);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end) {
            Matcher m = READY.matcher(Files.readString(out));
            if (m.find()) {
                return new Dev(p, out, Integer.parseInt(m.group(1)), project);
            }
            assertThat(p.isAlive()).as("dev exited early:\n%s", Files.readString(out)).isTrue();
            Thread.sleep(100);
        }
        throw new AssertionError("dev did not get ready in 180 s:\n" + Files.readString(out));
    }

    private static Path esbuild() {
        String set = System.getenv("CELLGATE_NPM_TOOLS");
        Path bin = (set != null ? Path.of(set) : ToolRun.repoRoot().resolve(".ci/npm-tools")).resolve("node_modules/.bin/esbuild");
        assertThat(bin).as("esbuild: run .ci/npm-tools.sh").isExecutable();
        return bin;
    }

    /** SIGINT, as Ctrl-C sends it: dev must end with 0, having stopped its node. */
    private void stop(Dev dev) throws Exception {
        List<ProcessHandle> tree = new ArrayList<>(dev.process.descendants().toList());
        assertThat(tree).as("dev's node").isNotEmpty();
        new ProcessBuilder("kill", "-INT", String.valueOf(dev.process.pid())).inheritIO().start().waitFor();
        assertThat(dev.process.waitFor(60, TimeUnit.SECONDS)).as("dev stops on SIGINT:\n%s", dev.out()).isTrue();
        assertThat(dev.process.exitValue()).as(dev.out()).isZero();
        assertThat(dev.out()).contains("[dev] stopped");
        // cleanly: the node drained and logged its own clean stop
        String nodeLog = Files.readString(dev.nodeLog());
        assertThat(nodeLog).contains("\"event\":\"node.stopped\"");
        assertThat(nodeLog.lines().filter(l -> l.contains("\"event\":\"node.stopped\"")).reduce((a, b) -> b).orElseThrow())
                .contains("\"exit_code\":0");
        for (ProcessHandle h : tree) {
            assertThat(h.isAlive()).as("process %s of the node outlived dev", h.pid()).isFalse();
        }
    }

    private long saveAndAwait(Dev dev, Path file, String content, String path, String prefix) throws Exception {
        Files.writeString(file, content);
        long t0 = System.nanoTime();
        awaitPrefix(dev, path, prefix, 30_000);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    private void awaitPrefix(Dev dev, String path, String prefix, long timeoutMs) throws Exception {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String last = null;
        while (System.nanoTime() < end) {
            last = get(dev, path);
            if (last.startsWith(prefix)) {
                return;
            }
            // not faster: a Durable Object moves to new code at a quiet moment, and a request every few ms leaves it none
            Thread.sleep(50);
        }
        throw new AssertionError("no answer starting '" + prefix + "' in " + timeoutMs + " ms (last: " + last + "):\n" + dev.out());
    }

    private void awaitAnswer(Dev dev, String path, String want, long timeoutMs) throws Exception {
        awaitPrefix(dev, path, want, timeoutMs);
        assertThat(get(dev, path)).isEqualTo(want);
    }

    private void awaitOutput(Dev dev, String text) throws Exception {
        awaitCount(dev, text, 1);
    }

    /** Until dev printed {@code text} at least {@code times} times. */
    private void awaitCount(Dev dev, String text, int times) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            if (count(dev.out(), text) >= times) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("dev never printed '" + text + "' " + times + " time(s):\n" + dev.out());
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    /** The first answer that is not the node's "loading" 503 (its first deployment may still be compiling). */
    private String await(Dev dev, String path) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end) {
            HttpResponse<String> r = send(dev, path);
            if (r.statusCode() != 503) {
                assertThat(r.statusCode()).as(r.body() + "\n" + dev.out()).isEqualTo(200);
                return r.body();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the node never answered " + path + ":\n" + dev.out());
    }

    private String get(Dev dev, String path) throws Exception {
        HttpResponse<String> r = send(dev, path);
        assertThat(r.statusCode()).as("%s -> %s %s\n%s", path, r.statusCode(), r.body(), dev.out()).isEqualTo(200);
        return r.body();
    }

    private HttpResponse<String> send(Dev dev, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dev.port() + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
