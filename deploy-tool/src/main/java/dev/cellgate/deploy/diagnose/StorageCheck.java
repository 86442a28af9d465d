package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The storage step of {@code diagnose}: proves on the live bucket that conditional writes are
 * atomic, writing only under {@code probe/} (skipped with {@code --read-only}). The real one,
 * {@link ConditionalWriteCheck}, runs the node's own start-up probe; the interface lets tests hand
 * diagnose a check against a deliberately broken store.
 */
public interface StorageCheck {

    Result run(BucketStore store, String who);

    record Step(String name, boolean ok, String detail, long ms) {
        JsonObject toJson() {
            return new JsonObject().put("step", name).put("ok", ok).put("detail", detail).put("ms", ms);
        }
    }

    /** Every step run, in order; the store qualifies only when all passed. */
    record Result(String summary, List<Step> steps) {
        public Result {
            steps = List.copyOf(steps);
        }

        public boolean ok() {
            return !steps.isEmpty() && steps.stream().allMatch(Step::ok);
        }

        public JsonObject toJson() {
            JsonArray a = new JsonArray();
            steps.forEach(s -> a.add(s.toJson()));
            return new JsonObject().put("ok", ok()).put("summary", summary).put("steps", a);
        }
    }
}
