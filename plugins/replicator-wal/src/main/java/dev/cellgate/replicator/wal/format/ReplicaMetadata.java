package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * {@code <db>.replica.json}, next to a cell database: which lineage point the local file holds.
 * Written by a restore (the file was just built for epoch {@code epoch}) and by a clean detach
 * (everything was durable at epoch {@code epoch}); consumed by the next attach. Without it a local
 * copy is never reused: attach cannot know what the file continues from.
 *
 * @param restored true when a restore wrote it for the epoch being acquired, false after a detach
 * @param lineage  how the bucket reaches {@code lineage.end()}; after a detach only {@code end} is meaningful
 */
public record ReplicaMetadata(String scope, long epoch, boolean restored, LineageEnd lineage) {
    private static final int FORMAT = 1;

    public static Path pathFor(Path dbFile) {
        return dbFile.resolveSibling(dbFile.getFileName() + ".replica.json");
    }

    public void write(Path dbFile) throws IOException {
        Path target = pathFor(dbFile);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(tmp, Json.bytes(new JsonObject().put("format", FORMAT).put("scope", scope).put("epoch", epoch)
                .put("restored", restored).put("lineage", lineage.toJson())));
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads the metadata of {@code dbFile}; empty when there is none; throws on a malformed file. */
    public static Optional<ReplicaMetadata> read(Path dbFile) throws IOException {
        Path p = pathFor(dbFile);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        String what = "replica metadata " + p;
        JsonObject j = Json.parse(bytes, what);
        Json.reqFormat(j, FORMAT, what);
        if (!(j.getValue("restored") instanceof Boolean r) || !(j.getValue("lineage") instanceof JsonObject l)) {
            throw new IllegalArgumentException(what + ": fields 'restored' (boolean) and 'lineage' (object) are required");
        }
        return Optional.of(new ReplicaMetadata(Json.reqString(j, "scope", what), Json.reqLong(j, "epoch", what), r,
                LineageEnd.fromJson(l, what)));
    }

    public static void delete(Path dbFile) throws IOException {
        Files.deleteIfExists(pathFor(dbFile));
    }
}
