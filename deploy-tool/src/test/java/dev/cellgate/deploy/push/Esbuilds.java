package dev.cellgate.deploy.push;

import dev.cellgate.deploy.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * esbuild for tests: the one {@code .ci/npm-tools.sh} installs. Missing, a test that needs it is
 * skipped with a message naming the script, except under {@code CI=true}, where it fails.
 */
final class Esbuilds {
    private Esbuilds() {
    }

    static Path binary() {
        String set = System.getenv("CELLGATE_NPM_TOOLS");
        Path tools = set != null ? Path.of(set) : ToolRun.repoRoot().resolve(".ci/npm-tools");
        return tools.resolve("node_modules/.bin/esbuild");
    }

    static void assumeAvailable() {
        if (Files.isExecutable(binary())) {
            return;
        }
        String msg = "esbuild is not installed at " + binary() + ": run .ci/npm-tools.sh";
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(msg);
        }
        Assumptions.abort(msg);
    }

    /** An environment that finds esbuild only through CELLD_ESBUILD. */
    static Map<String, String> env() {
        return Map.of("CELLD_ESBUILD", binary().toString());
    }
}
