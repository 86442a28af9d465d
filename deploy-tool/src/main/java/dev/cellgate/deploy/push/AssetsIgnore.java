package dev.cellgate.deploy.push;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which paths of an assets directory Wrangler leaves out of the upload: its own
 * {@code /.assetsignore}, {@code /_redirects} and {@code /_headers}, then every line of the
 * directory's {@code .assetsignore} split on {@code "\n"} (each read by {@link IgnoreLine}). As in
 * gitignore and Wrangler's {@code ignore@5}, the last rule that matches decides, and a file under an
 * ignored directory stays ignored whatever a later negation says. Pure: the caller reads the file.
 */
final class AssetsIgnore {
    static final String FILE_NAME = ".assetsignore";
    private static final List<String> DEFAULTS = List.of("/" + FILE_NAME, "/_redirects", "/_headers");

    /**
     * TEST ONLY, the broken variant: every line straight to JGit, matched case-sensitively, as git
     * reads a .gitignore. AssetsIgnoreDifferentialTest proves the comparison with Wrangler catches it.
     */
    static volatile boolean brokenReadAsPlainGit;

    private final List<IgnoreLine> lines;
    private final boolean filePresent;

    private AssetsIgnore(List<IgnoreLine> lines, boolean filePresent) {
        this.lines = lines;
        this.filePresent = filePresent;
    }

    /** @param fileText the {@code .assetsignore} text, or null when the directory has none */
    static AssetsIgnore of(String fileText) {
        List<String> patterns = new ArrayList<>(DEFAULTS);
        if (fileText != null) {
            patterns.addAll(List.of(fileText.split("\n", -1)));
        }
        List<IgnoreLine> lines = new ArrayList<>();
        for (String p : patterns) {
            (brokenReadAsPlainGit ? IgnoreLine.asPlainGit(p) : IgnoreLine.parse(p)).ifPresent(lines::add);
        }
        return new AssetsIgnore(List.copyOf(lines), fileText != null);
    }

    /** Whether the directory has a {@code .assetsignore} (with one, even empty, a {@code _worker.js} is uploaded). */
    boolean filePresent() {
        return filePresent;
    }

    /** @param relative a regular file's path under the assets directory: '/'-separated, no leading slash */
    boolean ignores(String relative) {
        String path = brokenReadAsPlainGit ? relative : relative.toLowerCase(Locale.ROOT);
        // parents first, outermost first, as ignore@5 does: an ignored directory hides all below it
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
            if (ignored(path.substring(0, slash), true)) {
                return true;
            }
        }
        return ignored(path, false);
    }

    private boolean ignored(String path, boolean isDirectory) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            IgnoreLine line = lines.get(i);
            if (line.matches(path, isDirectory)) {
                return !line.negative();
            }
        }
        return false;
    }
}
