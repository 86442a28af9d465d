package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code r2_buckets[]}: an R2 bucket ({@code jurisdiction} kept as written; null when none). */
public record R2BucketBinding(String name, String bucketName, String jurisdiction) implements Binding {
    public static final String TYPE = "r2_bucket";

    public R2BucketBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(bucketName, "bucketName");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return StrictJson.putIf(new JsonObject().put("bucket_name", bucketName), "jurisdiction", jurisdiction);
    }

    static R2BucketBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "bucket_name", "jurisdiction"));
        return new R2BucketBinding(name, f.text("bucket_name"), f.textOrNull("jurisdiction"));
    }
}
