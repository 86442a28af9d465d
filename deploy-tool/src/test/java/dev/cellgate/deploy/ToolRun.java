package dev.cellgate.deploy;

import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.Env;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Runs the tool's real entry point in-process with a chosen environment, capturing what it prints. */
public record ToolRun(int code, String out, String err) {

    /** The environment every test run starts from: PATH and HOME only, never the caller's CELLD_* settings. */
    public static Map<String, String> baseEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", System.getProperty("user.home"));
        env.put("CELLD_FILE_FSYNC", "0");
        return env;
    }

    public static ToolRun run(Map<String, String> extraEnv, String... argv) {
        return run(extraEnv, null, argv);
    }

    public static ToolRun run(String... argv) {
        return run(Map.of(), null, argv);
    }

    public static ToolRun run(Map<String, String> extraEnv, List<Command> commands, String... argv) {
        return run(extraEnv, commands, new byte[0], null, argv);
    }

    /** With {@code stdin} piped in (no terminal). */
    public static ToolRun piped(String stdin, String... argv) {
        return run(Map.of(), null, stdin.getBytes(StandardCharsets.UTF_8), null, argv);
    }

    /** At a terminal where the person types {@code typed} at the hidden prompt (null: end of input); the prompts shown are added to {@code prompts}. */
    public static ToolRun atTerminal(String typed, List<String> prompts, String... argv) {
        return run(Map.of(), null, new byte[0], prompt -> {
            prompts.add(prompt);
            return typed == null ? null : typed.toCharArray();
        }, argv);
    }

    public static ToolRun run(Map<String, String> extraEnv, List<Command> commands, byte[] stdin, Env.HiddenPrompt terminal,
                              String... argv) {
        Map<String, String> env = baseEnv();
        env.putAll(extraEnv);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Env e = new Env(env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new java.io.ByteArrayInputStream(stdin), terminal);
        int code = commands == null ? DeployTool.run(argv, e) : DeployTool.run(argv, e, commands);
        return new ToolRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** stdout as the one JSON object --json prints. */
    public JsonObject json() {
        return new JsonObject(out.strip());
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }

    /** Every file under {@code dir} with its bytes (as text): a bucket's full state, to prove nothing was written. */
    public static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        if (!Files.exists(dir)) {
            return m;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(p).toString(), new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return m;
    }

    /** The cellgate checkout this test runs in (deploy-tool/target/test-classes is three levels down). */
    public static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        return Files.isDirectory(p.resolve("deploy-tool")) ? p : p.getParent();
    }
}
