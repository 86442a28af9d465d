package dev.cellgate.deploy.cells;

import io.vertx.core.json.JsonObject;

/**
 * One cell as {@code cells list} shows it, from its keys under {@code cells/<scope>/}.
 *
 * @param owner       the owning node ({@code ""} when released), null when {@code own.json} is missing or unreadable
 * @param epoch       the ownership epoch, 0 when unknown
 * @param size        bytes of the cell's replicated data (everything under the prefix but {@code own.json})
 * @param objects     how many objects that data is
 * @param lastWriteMs the newest modification time among them, -1 when the store keeps none or there is no data
 * @param error       why {@code own.json} could not be read, else null
 */
record CellSummary(String scope, String owner, String session, long epoch, long size, int objects, long lastWriteMs, String error) {

    boolean released() {
        return owner != null && owner.isEmpty();
    }

    JsonObject toJson() {
        JsonObject j = new JsonObject().put("scope", scope).put("owner", owner).put("released", owner == null ? null : released())
                .put("session", session).put("epoch", epoch).put("size", size).put("objects", objects)
                .put("last_write_ms", lastWriteMs < 0 ? null : lastWriteMs)
                .put("last_write", lastWriteMs < 0 ? null : java.time.Instant.ofEpochMilli(lastWriteMs).toString());
        if (error != null) {
            j.put("error", error);
        }
        return j;
    }
}
