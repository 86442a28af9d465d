package dev.cellgate.gateway.dashboard;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.WakerLeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The two fleet records the dashboard shows beside the leases: {@code deploy/current.json} and
 * {@code wake/waker.json}. Read at most once per {@link #MAX_AGE_MS} however many pages poll, so
 * an open dashboard costs the bucket two reads a second at most. A malformed record is shown as
 * such, never hidden.
 */
final class FleetRecords {
    static final long MAX_AGE_MS = 1000;

    private final BucketStore bucket;
    private CompletableFuture<JsonObject> last;
    private long lastMs = Long.MIN_VALUE;

    FleetRecords(BucketStore bucket) {
        this.bucket = bucket;
    }

    /** {@code {deployment: {...}|null, waker: {...}|null}} as of at most a second ago. */
    synchronized CompletableFuture<JsonObject> read(long nowMs) {
        if (last != null && nowMs - lastMs < MAX_AGE_MS) {
            return last;
        }
        CompletableFuture<JsonObject> current = record(Keys.CURRENT_DEPLOYMENT, b -> {
            CurrentDeployment c = CurrentDeployment.decode(b);
            return new JsonObject().put("current", c.deployment()).put("previous", c.previous()).put("ms", c.ms());
        });
        CompletableFuture<JsonObject> waker = record(Keys.WAKER, b -> {
            WakerLeaseRecord w = WakerLeaseRecord.decode(b);
            return new JsonObject().put("node", w.node()).put("session", w.session()).put("expires_ms", w.expiresMs())
                    .put("live", w.expiresMs() > System.currentTimeMillis());
        });
        last = current.thenCombine(waker, (c, w) -> new JsonObject().put("deployment", c).put("waker", w));
        lastMs = nowMs;
        return last;
    }

    /** The record as JSON, null when absent, {@code {error}} when unreadable or malformed. */
    private CompletableFuture<JsonObject> record(String key, Function<byte[], JsonObject> decode) {
        return bucket.get(key).handle((Optional<StoredObject> o, Throwable e) -> {
            if (e != null) {
                return new JsonObject().put("error", "cannot read " + key + ": " + Errors.rootMessage(e));
            }
            if (o.isEmpty()) {
                return null;
            }
            try {
                return decode.apply(o.get().bytes());
            } catch (MalformedRecordException | IllegalArgumentException bad) {
                return new JsonObject().put("error", "malformed " + key + ": " + bad.getMessage());
            }
        });
    }
}
