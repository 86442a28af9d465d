package dev.cellgate.deploy.push;

import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.logic.assets.ContentTypes;
import dev.cellgate.core.logic.assets.HeaderRules;
import dev.cellgate.core.logic.assets.RedirectRules;
import dev.cellgate.deploy.cli.CommandException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The {@code assets.directory} a push uploads: every regular file under it by pathname
 * ({@code /sub/file.css}), with its digest, size and Wrangler's content type, except the root's
 * {@code _redirects} and {@code _headers}, which are rules rather than files (their text goes into
 * the {@link AssetManifest}; each line Cloudflare would ignore is printed as a note). Cloudflare's
 * limits are refused by name: more than 20,000 files, a file over 25 MiB. Files a root
 * {@code .assetsignore} names are left out as Wrangler leaves them out ({@link AssetsIgnore}), and,
 * as Wrangler does, a Pages {@code _worker.js} is refused unless a {@code .assetsignore} exists.
 */
public record AssetsDirectory(Path root, AssetManifest manifest, Map<String, Path> files, long totalBytes) {
    static final int MAX_FILES = 20_000;
    static final long MAX_FILE_BYTES = 25L * 1024 * 1024;

    /**
     * TEST ONLY, the broken variant: no guard against a Pages {@code _worker.js}.
     * AssetsIgnoreDifferentialTest proves the comparison with Wrangler catches it.
     */
    static volatile boolean brokenUploadWorkerJs;

    public static AssetsDirectory scan(Path root, Consumer<String> note) {
        if (!Files.isDirectory(root)) {
            throw CommandException.refused("assets.directory " + root + " is not a directory");
        }
        Path ignoreFile = root.resolve(AssetsIgnore.FILE_NAME);
        if (Files.exists(ignoreFile) && !Files.isRegularFile(ignoreFile)) {
            throw CommandException.refused(ignoreFile + " is not a file (Wrangler cannot read it either)");
        }
        AssetsIgnore ignore = AssetsIgnore.of(Files.isRegularFile(ignoreFile) ? text(ignoreFile) : null);
        int ignored = 0;
        Map<String, AssetEntry> entries = new TreeMap<>();
        Map<String, Path> files = new TreeMap<>();
        long total = 0;
        List<Path> found;
        try (Stream<Path> walk = Files.walk(root)) {
            found = walk.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw CommandException.failed("cannot read assets.directory " + root + ": " + e.getMessage(), e);
        }
        String redirects = "";
        String headers = "";
        for (Path p : found) {
            String relative = relativePath(root, p);
            String pathname = "/" + relative;
            // the rule files are read as rules whatever .assetsignore says; like Wrangler, they are also
            // uploaded as files when a negation (such as "!_headers") takes them out of its default rules
            if (pathname.equals("/_redirects")) {
                redirects = text(p);
            } else if (pathname.equals("/_headers")) {
                headers = text(p);
            }
            if (ignore.ignores(relative)) {
                ignored += List.of(AssetsIgnore.FILE_NAME, "_redirects", "_headers").contains(relative) ? 0 : 1;
                continue;
            }
            if (!ignore.filePresent() && !brokenUploadWorkerJs) {
                refuseWorkerJs(relative, p);
            }
            byte[] bytes = read(p);
            if (bytes.length > MAX_FILE_BYTES) {
                throw CommandException.refused("asset " + p + " is " + bytes.length + " bytes; Cloudflare's limit (kept here) is 25 MiB a file");
            }
            entries.put(pathname, new AssetEntry(DeploymentStore.sha256(bytes), bytes.length, ContentTypes.of(pathname)));
            files.put(pathname, p);
            total += bytes.length;
            if (files.size() > MAX_FILES) {
                throw CommandException.refused("assets.directory " + root + " has more than " + MAX_FILES
                        + " files, Cloudflare's limit (kept here)");
            }
        }
        if (ignored > 0) {
            note.accept("assets: " + ignored + " file" + (ignored == 1 ? "" : "s")
                    + " left out of the upload by .assetsignore (and Wrangler's own /_redirects, /_headers rules, matched regardless of case)");
        }
        RedirectRules.parse(redirects).warnings().forEach(note);
        HeaderRules.parse(headers).warnings().forEach(note);
        return new AssetsDirectory(root, new AssetManifest(entries, redirects, headers), files, total);
    }

    /** The path under the root with '/' between names, whatever the platform (a '\\' in a name stays). */
    private static String relativePath(Path root, Path file) {
        StringBuilder b = new StringBuilder();
        for (Path name : root.relativize(file)) {
            b.append(b.isEmpty() ? "" : "/").append(name);
        }
        return b.toString();
    }

    /**
     * Wrangler's guard against publishing a Pages Worker: with no {@code .assetsignore}, a root
     * {@code _worker.js} file, or any path that starts with {@code _worker.js} (a {@code _worker.js/}
     * directory, and, as Wrangler tests it, {@code _worker.json} too), is refused.
     */
    private static void refuseWorkerJs(String relative, Path file) {
        if (!relative.startsWith("_worker.js")) {
            return;
        }
        String kind = relative.equals("_worker.js") ? "file" : "directory";
        throw CommandException.refused("asset " + file + ": refusing to upload a Pages _worker.js " + kind
                + " as an asset, which could expose private server-side code to the public Internet (Wrangler refuses it too). "
                + "To leave it out, remove it or add \"_worker.js\" to a .assetsignore at the root of the assets directory; "
                + "to upload it on purpose, add an empty .assetsignore there");
    }

    private static String text(Path p) {
        return new String(read(p), StandardCharsets.UTF_8);
    }

    static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw CommandException.failed("cannot read asset " + p + ": " + e.getMessage(), e);
        }
    }
}
