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
 * limits are refused by name: more than 20,000 files, a file over 25 MiB. A {@code .assetsignore}
 * is refused too (not implemented: uploading the files it names would serve what the project meant
 * to keep private).
 */
public record AssetsDirectory(Path root, AssetManifest manifest, Map<String, Path> files, long totalBytes) {
    static final int MAX_FILES = 20_000;
    static final long MAX_FILE_BYTES = 25L * 1024 * 1024;

    public static AssetsDirectory scan(Path root, Consumer<String> note) {
        if (!Files.isDirectory(root)) {
            throw CommandException.refused("assets.directory " + root + " is not a directory");
        }
        if (Files.exists(root.resolve(".assetsignore"))) {
            throw CommandException.refused(root.resolve(".assetsignore") + ": .assetsignore is not supported by cellgate yet; "
                    + "move the files it lists out of the assets directory");
        }
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
            String pathname = "/" + root.relativize(p).toString().replace('\\', '/');
            if (pathname.equals("/_redirects")) {
                redirects = text(p);
                continue;
            }
            if (pathname.equals("/_headers")) {
                headers = text(p);
                continue;
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
        RedirectRules.parse(redirects).warnings().forEach(note);
        HeaderRules.parse(headers).warnings().forEach(note);
        return new AssetsDirectory(root, new AssetManifest(entries, redirects, headers), files, total);
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
