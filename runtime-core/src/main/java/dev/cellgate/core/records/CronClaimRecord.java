package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/**
 * {@code crons/<worker>/<hash>.json}: the latest occurrence of one cron trigger a node claimed.
 * The node whose conditional write of it lands runs that occurrence; {@code claim} is a random
 * token of that one attempt, so a node that re-reads after an ambiguous write knows whether the
 * record is its own write (and not an earlier one of its own, or another session's).
 */
public record CronClaimRecord(String cron, long occurrenceMs, String node, String claim) {
    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("cron", cron).put("occurrence_ms", occurrenceMs).put("node", node).put("claim", claim));
    }

    public static CronClaimRecord decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "cron claim");
        return new CronClaimRecord(f.text("cron"), f.integer("occurrence_ms"), f.text("node"), f.text("claim"));
    }
}
