package dev.cellgate.gateway.it;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real node: {@code java -jar gateway/target/gateway.jar} in its own process, started the
 * documented way (so the JIT relaunch happens), with its log lines captured for assertions.
 */
public final class NodeProcess implements AutoCloseable {
    public static final Path GATEWAY_JAR = locateJar();
    /**
     * The operator token every test node gets unless a test sets its own: the mutating operator
     * routes need it (or a fleet-key signature) since issue 30. Random per test JVM.
     */
    public static final String OPERATOR_TOKEN = "test-operator-" + java.util.UUID.randomUUID();
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Path logFile;
    private final Thread pumpThread;
    private volatile String publicAddr;
    private volatile String internalAddr;

    private NodeProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        Thread t = new Thread(this::pump, "node-log-" + name);
        t.setDaemon(true);
        t.start();
        this.pumpThread = t;
    }

    /** Starts a node with these settings (on top of test defaults) and waits until it listens. */
    public static NodeProcess start(String name, Path workDir, Map<String, String> env) throws Exception {
        return start(name, workDir, env, List.of("-Xmx1g"));
    }

    /** As {@link #start(String, Path, Map)} with the launcher's JVM options (the JIT child inherits them). */
    public static NodeProcess start(String name, Path workDir, Map<String, String> env, List<String> jvmArgs) throws Exception {
        NodeProcess n = launch(name, workDir, env, jvmArgs);
        n.awaitLine(l -> l.contains("\"event\":\"node.listening\""), Duration.ofSeconds(300));
        n.awaitHealthy(Duration.ofSeconds(300));
        return n;
    }

    /**
     * Spawns a node and returns at once, before it listens: for tests that watch a start from its
     * first moment (give it a fixed {@code CELLD_ADDR} to know where to look).
     */
    public static NodeProcess launch(String name, Path workDir, Map<String, String> env, List<String> jvmArgs) throws Exception {
        Files.createDirectories(workDir);
        Map<String, String> e = new HashMap<>();
        e.put("CELLD_NODE", name);
        e.put("CELLD_ADDR", "127.0.0.1:0");
        e.put("CELLD_INTERNAL_ADDR", "127.0.0.1:0");
        e.put("CELLD_WATCH", workDir.resolve("watch").toString());
        e.put("CELLD_FILE_FSYNC", "0");
        e.put("CELLD_OPERATOR_TOKEN", OPERATOR_TOKEN);
        e.putAll(env);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(GATEWAY_JAR.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_"));
        pb.environment().putAll(e);
        Path logs = Path.of("target", "it-logs").toAbsolutePath();
        Files.createDirectories(logs);
        return new NodeProcess(name, pb.start(), logs.resolve(name + "-" + System.currentTimeMillis() + ".log"));
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                Files.writeString(logFile, line + "\n", StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                if (line.contains("\"event\":\"node.listening\"")) {
                    JsonObject j = new JsonObject(line);
                    publicAddr = j.getString("public");
                    internalAddr = j.getString("internal");
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public String publicUrl(String path) {
        return "http://" + publicAddr + path;
    }

    public String internalUrl(String path) {
        return "http://" + internalAddr + path;
    }

    public String internalAddr() {
        return internalAddr;
    }

    public List<String> lines() {
        return new ArrayList<>(lines);
    }

    /** Log lines (JSON) whose event is {@code event}. */
    public List<JsonObject> events(String event) {
        List<JsonObject> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("{") && l.contains("\"event\":\"" + event + "\"")) {
                out.add(new JsonObject(l));
            }
        }
        return out;
    }

    public String awaitLine(Predicate<String> p, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (System.nanoTime() < end) {
            List<String> now = lines();
            for (int i = seen; i < now.size(); i++) {
                if (p.test(now.get(i))) {
                    return now.get(i);
                }
            }
            seen = now.size();
            if (!process.isAlive() && seen == lines().size()) {
                throw new AssertionError("node " + name + " exited (" + process.exitValue() + ") before the expected line; log:\n"
                        + String.join("\n", lines().subList(Math.max(0, lines().size() - 40), lines().size())));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("node " + name + ": no expected line within " + timeout + "; log tail:\n"
                + String.join("\n", lines().subList(Math.max(0, lines().size() - 40), lines().size())));
    }

    /** Waits until /__celld/health answers 200 (the current deployment is loaded). */
    public void awaitHealthy(Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new AssertionError("node " + name + " exited (" + process.exitValue() + ") while starting");
            }
            try {
                if (get(publicUrl("/__celld/health")).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not accepting yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("node " + name + " not healthy within " + timeout);
    }

    public HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build());
    }

    /** {@code POST} to a mutating operator route of this node's internal listener, with the operator token. */
    public HttpResponse<String> operatorPost(String pathAndQuery) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(internalUrl(pathAndQuery))).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + OPERATOR_TOKEN).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    public HttpResponse<String> post(String url, String body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /**
     * Sends, and when the node cannot be reached says whether it is still running and what it
     * logged last: a refused connection in a CI report is otherwise a dead end.
     */
    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.ConnectException e) {
            List<String> all = lines();
            String state = process.isAlive() ? "still running" : "exited with " + process.exitValue();
            throw new java.net.ConnectException("node " + name + " (" + state + ") refused " + request.uri() + "; log tail:\n"
                    + String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size())));
        }
    }

    public JsonObject state() throws IOException, InterruptedException {
        return new JsonObject(get(internalUrl("/state")).body());
    }

    /**
     * SIGTERM to the launcher (which forwards it to the JIT child). Through the handle:
     * {@code Process.destroy()} would also close our end of the output pipe and lose the last lines.
     */
    public void sigterm() {
        process.toHandle().destroy();
    }

    /** SIGKILL to the launcher and its child: the process tree dies at once. */
    public void sigkill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** SIGSTOP / SIGCONT to the whole tree (the child does the work). */
    public void signal(String sig) throws IOException, InterruptedException {
        List<String> pids = new ArrayList<>();
        pids.add(Long.toString(process.pid()));
        process.descendants().forEach(d -> pids.add(Long.toString(d.pid())));
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + sig));
        cmd.addAll(pids);
        new ProcessBuilder(cmd).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
    }

    public int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("node " + name + " still running after " + timeout);
        }
        pumpThread.join(5000); // the JIT child shares the pipe: read its last lines too
        return process.exitValue();
    }

    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            sigkill();
        }
    }

    private static Path locateJar() {
        Path p = Path.of("target", "gateway.jar").toAbsolutePath();
        if (!Files.exists(p)) {
            p = Path.of("gateway", "target", "gateway.jar").toAbsolutePath();
        }
        return p;
    }

    /** A port nothing listens on right now (for a proxy or a node address a test must know in advance). */
    static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
