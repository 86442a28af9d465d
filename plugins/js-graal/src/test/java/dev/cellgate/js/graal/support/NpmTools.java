package dev.cellgate.js.graal.support;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where .ci/npm-tools.sh installed the npm packages tests need (or CELLGATE_NPM_TOOLS). */
public final class NpmTools {
    public static final String SCRIPT = ".ci/npm-tools.sh";

    private NpmTools() {
    }

    /** The miniflare entry module, or null when it is not installed. */
    public static Path miniflare() {
        Path root = toolsDir();
        if (root == null) {
            return null;
        }
        Path entry = root.resolve("node_modules/miniflare/dist/src/index.js");
        return Files.isRegularFile(entry) ? entry : null;
    }

    static Path toolsDir() {
        String env = System.getenv("CELLGATE_NPM_TOOLS");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(SCRIPT))) {
                return p.resolve(".ci/npm-tools");
            }
        }
        return null;
    }
}
