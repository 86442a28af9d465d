package dev.cellgate.core.cell;

import dev.cellgate.core.logic.Scopes;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * A cell's local files under {@code CELLD_WATCH/cells/<Class>/<hex>/}: the SQLite database (and
 * whatever the replicator keeps beside it) and {@code kept.json}, written after a clean close
 * (a release, or a preserve shutdown): "this copy is exactly what the bucket holds at epoch N".
 * Only then, and only when the next activation moves from epoch N to N+1 (nobody held the cell
 * in between), may this node reuse it instead of restoring.
 */
final class CellFiles {
    private final Path dir;

    CellFiles(Path watchDir, String scope) {
        this.dir = watchDir.resolve("cells").resolve(Scopes.className(scope)).resolve(Scopes.hexId(scope));
    }

    Path dir() {
        return dir;
    }

    Path database() {
        return dir.resolve("db.sqlite");
    }

    private Path releasedMarker() {
        return dir.resolve("kept.json");
    }

    /** The epoch this node cleanly released the local copy at, if any. */
    OptionalLong releasedEpoch() {
        try {
            if (!Files.exists(releasedMarker()) || !Files.exists(database())) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(new JsonObject(Files.readString(releasedMarker())).getLong("epoch"));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    void markReleased(long epoch) throws IOException {
        Files.writeString(releasedMarker(), new JsonObject().put("epoch", epoch).encode(), StandardCharsets.UTF_8);
    }

    /** Forget the clean-release mark: from now on the copy may diverge from the bucket. */
    void clearReleased() throws IOException {
        Files.deleteIfExists(releasedMarker());
    }

    void prepare() throws IOException {
        Files.createDirectories(dir);
    }

    /** Removes every local file of the cell. */
    void wipe() throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
