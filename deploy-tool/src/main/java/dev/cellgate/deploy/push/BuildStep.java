package dev.cellgate.deploy.push;

import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The config's {@code build.command}, run before anything is read or bundled, as Wrangler runs it:
 * through the shell, in {@code build.cwd} (relative to the config; default the config's directory),
 * with the tool's environment. A command that fails, or outlives {@link #TIMEOUT_S}, refuses the
 * push with its exit code and output: bundling stale files would deploy something nobody built.
 */
final class BuildStep {
    static final long TIMEOUT_S = 600;

    private BuildStep() {
    }

    static void run(WranglerConfig.Build build, Path configDir, Env env, Consumer<String> note) {
        if (build == null) {
            return;
        }
        Path cwd = (build.cwd() == null ? configDir : configDir.resolve(build.cwd())).toAbsolutePath().normalize();
        if (!Files.isDirectory(cwd)) {
            throw CommandException.refused("build.cwd " + build.cwd() + " (" + cwd + ") is not a directory");
        }
        note.accept("running build.command: " + build.command() + " (in " + cwd + ")");
        Path log = null;
        try {
            log = Files.createTempFile("deploy-tool-build-", ".log");
            ProcessBuilder pb = new ProcessBuilder(List.of("sh", "-c", build.command())).directory(cwd.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().clear();
            pb.environment().putAll(env.vars());
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw CommandException.refused("build.command did not finish within " + TIMEOUT_S + " s: " + build.command());
            }
            String output = Files.readString(log, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw CommandException.refused("build.command failed (exit " + p.exitValue() + "): " + build.command()
                        + (output.isEmpty() ? "" : "\n" + output) + "\nnothing was bundled or uploaded");
            }
            if (!output.isEmpty()) {
                note.accept(output);
            }
        } catch (IOException e) {
            throw CommandException.refused("could not run build.command " + build.command() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommandException.failed("interrupted while build.command ran", e);
        } finally {
            if (log != null) {
                log.toFile().delete();
            }
        }
    }
}
