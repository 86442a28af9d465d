package dev.cellgate.core.logic.assets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** A directory of files written for a test, and the asset manifest the push would make of it. */
final class SiteFixture implements AssetLookup {
    final Path root;
    private final Map<String, AssetEntry> files = new LinkedHashMap<>();

    SiteFixture(Path root) {
        this.root = root;
    }

    /** Writes {@code body} at {@code pathname} (e.g. {@code /a/index.html}). */
    SiteFixture file(String pathname, String body) {
        try {
            Path p = root.resolve(pathname.substring(1));
            Files.createDirectories(p.getParent());
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            Files.write(p, bytes);
            if (pathname.equals("/_redirects") || pathname.equals("/_headers")) {
                return this;
            }
            files.put(pathname, new AssetEntry(sha256(bytes), bytes.length, ContentTypes.of(pathname)));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public AssetEntry get(String pathname) {
        return files.get(pathname);
    }

    String body(String pathname) {
        try {
            return Files.readString(root.resolve(pathname.substring(1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of a file written here, or empty when there is none. */
    String text(String pathname) {
        Path p = root.resolve(pathname.substring(1));
        return Files.isRegularFile(p) ? body(pathname) : "";
    }

    Stream<String> pathnames() {
        return files.keySet().stream();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
