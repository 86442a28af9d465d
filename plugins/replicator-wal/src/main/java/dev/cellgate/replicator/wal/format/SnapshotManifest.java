package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code snap/<txid>/manifest.json}: written after every chunk of the snapshot is durable, so its
 * presence means the snapshot is complete. Lists the chunks (contiguous page runs) and the
 * database position the snapshot holds.
 */
public record SnapshotManifest(String scope, long epoch, Position position, List<Chunk> chunks) {
    private static final int FORMAT = 1;

    /** Pages {@code [firstPage, firstPage + pages)} in object {@code key}, {@code bytes} long. */
    public record Chunk(String key, int firstPage, int pages, long bytes) {
    }

    public SnapshotManifest {
        chunks = List.copyOf(chunks);
        int next = 1;
        for (Chunk c : chunks) {
            if (c.firstPage() != next || c.pages() < 1) {
                throw new IllegalArgumentException("snapshot manifest of e" + epoch + " txid " + position.txid()
                        + ": chunk " + c.key() + " does not start at page " + next);
            }
            next += c.pages();
        }
        if (next - 1 != position.pages()) {
            throw new IllegalArgumentException("snapshot manifest of e" + epoch + " txid " + position.txid()
                    + ": chunks hold " + (next - 1) + " pages, the database has " + position.pages());
        }
    }

    public byte[] toBytes() {
        JsonArray arr = new JsonArray();
        chunks.forEach(c -> arr.add(new JsonObject().put("key", c.key()).put("firstPage", c.firstPage())
                .put("pages", c.pages()).put("bytes", c.bytes())));
        return Json.bytes(new JsonObject().put("format", FORMAT).put("scope", scope).put("epoch", epoch)
                .put("position", position.toJson()).put("chunks", arr).put("createdMs", System.currentTimeMillis()));
    }

    public static SnapshotManifest fromBytes(byte[] bytes, String what) {
        JsonObject j = Json.parse(bytes, what);
        Json.reqFormat(j, FORMAT, what);
        if (!(j.getValue("position") instanceof JsonObject pos) || !(j.getValue("chunks") instanceof JsonArray arr)) {
            throw new IllegalArgumentException(what + ": fields 'position' (object) and 'chunks' (array) are required");
        }
        List<Chunk> chunks = new ArrayList<>();
        for (Object o : arr) {
            if (!(o instanceof JsonObject c)) {
                throw new IllegalArgumentException(what + ": 'chunks' holds a non-object");
            }
            chunks.add(new Chunk(Json.reqString(c, "key", what), (int) Json.reqLong(c, "firstPage", what),
                    (int) Json.reqLong(c, "pages", what), Json.reqLong(c, "bytes", what)));
        }
        return new SnapshotManifest(Json.reqString(j, "scope", what), Json.reqLong(j, "epoch", what),
                Position.fromJson(pos, what), chunks);
    }
}
