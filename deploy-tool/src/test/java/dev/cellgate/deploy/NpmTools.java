package dev.cellgate.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * A file of an npm package {@code .ci/npm-tools.sh} installs (under {@code CELLGATE_NPM_TOOLS},
 * default {@code <repo>/.ci/npm-tools}). Missing, the test that needs it is skipped with a message
 * naming the script, except under {@code CI=true}, where it fails.
 */
public final class NpmTools {
    private NpmTools() {
    }

    /** @param relative e.g. {@code node_modules/ignore/index.js} */
    public static Path require(String relative, String what) {
        String set = System.getenv("CELLGATE_NPM_TOOLS");
        Path tools = set != null ? Path.of(set) : ToolRun.repoRoot().resolve(".ci/npm-tools");
        Path entry = tools.resolve(relative);
        if (!Files.isRegularFile(entry)) {
            String msg = what + " is not installed at " + entry + ": run .ci/npm-tools.sh (or set CELLGATE_NPM_TOOLS)";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(msg);
            }
            Assumptions.abort(msg);
        }
        return entry;
    }
}
