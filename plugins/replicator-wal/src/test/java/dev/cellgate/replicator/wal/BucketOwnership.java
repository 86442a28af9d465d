package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The ownership records of the spec ({@code cells/<scope>/own.json}, {@code {node, session, epoch}})
 * kept in the real bucket, as a host does: acquire bumps the epoch by compare-and-swap, and the
 * check after each upload reads the record.
 */
final class BucketOwnership {
    private BucketOwnership() {
    }

    static String key(String scope) {
        return "cells/" + scope + "/own.json";
    }

    /** Takes the cell at the next epoch (create-only at 1, else compare-and-swap at epoch+1). */
    static long acquire(BucketStore store, String scope, String node) throws Exception {
        for (int i = 0; i < 50; i++) {
            Optional<StoredObject> cur = store.get(key(scope)).get(30, TimeUnit.SECONDS);
            long epoch = cur.map(o -> new JsonObject(new String(o.bytes(), StandardCharsets.UTF_8)).getLong("epoch")).orElse(0L) + 1;
            byte[] rec = new JsonObject().put("node", node).put("session", "s").put("epoch", epoch).encode().getBytes(StandardCharsets.UTF_8);
            WriteOutcome w = cur.isEmpty() ? store.putIfAbsent(key(scope), rec).get(30, TimeUnit.SECONDS)
                    : store.putIfVersion(key(scope), rec, cur.get().version()).get(30, TimeUnit.SECONDS);
            if (w.written()) {
                return epoch;
            }
        }
        throw new IllegalStateException("could not acquire " + scope);
    }

    /** One read of the record per call: true while {@code node} holds the cell at {@code epoch}. */
    static OwnershipCheck check(BucketStore store, String scope, String node, long epoch) {
        return () -> store.get(key(scope)).thenApply(o -> o.map(x -> {
            JsonObject j = new JsonObject(new String(x.bytes(), StandardCharsets.UTF_8));
            return node.equals(j.getString("node")) && j.getLong("epoch") == epoch;
        }).orElse(false));
    }
}
