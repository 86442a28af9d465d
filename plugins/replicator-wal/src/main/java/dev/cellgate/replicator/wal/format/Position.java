package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonObject;

/**
 * A point in a cell's history: the database after transaction {@code txid} of the lineage,
 * with {@code pages} pages of {@code pageSize} bytes and the given checksum. The empty database
 * before the first transaction is {@code (0, 0, 0, 0)} with any page size.
 *
 * @param epoch the epoch whose data reached this point (0 for the empty start)
 */
public record Position(long epoch, long txid, long checksum, int pages, int pageSize) {

    public static Position empty() {
        return new Position(0, 0, 0, 0, 0);
    }

    public boolean isEmpty() {
        return txid == 0 && pages == 0;
    }

    /** Same database content (txid, size, checksum): the epoch may differ, the bytes may not. */
    public boolean sameContent(Position o) {
        return txid == o.txid && checksum == o.checksum && pages == o.pages && (pages == 0 || pageSize == o.pageSize);
    }

    public JsonObject toJson() {
        return new JsonObject().put("epoch", epoch).put("txid", txid).put("checksum", PageHash.hex(checksum))
                .put("pages", pages).put("pageSize", pageSize);
    }

    public static Position fromJson(JsonObject j, String what) {
        return new Position(Json.reqLong(j, "epoch", what), Json.reqLong(j, "txid", what),
                PageHash.parseHex(Json.reqString(j, "checksum", what)),
                (int) Json.reqLong(j, "pages", what), (int) Json.reqLong(j, "pageSize", what));
    }

    @Override
    public String toString() {
        return "e" + epoch + "/txid " + txid + " (" + pages + " pages, checksum " + PageHash.hex(checksum) + ")";
    }
}
