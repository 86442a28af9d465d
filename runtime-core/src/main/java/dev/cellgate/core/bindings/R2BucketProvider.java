package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.R2BucketBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.time.Ticker;
import java.util.regex.Pattern;

/**
 * {@code r2_bucket}: an R2 bucket whose objects live in the fleet bucket under
 * {@code r2/<bucket_name>/} ({@link R2BucketHost}); js-graal's {@code r2_bucket.js} is the Workers
 * API over it. A {@code jurisdiction} is refused by name: a self-hosted fleet has one location.
 */
public final class R2BucketProvider implements BindingProvider {
    /** R2's bucket names: 3 to 63 of lower-case letters, digits and hyphens. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    private final BucketStore bucket;
    private final Ticker clock;
    private final boolean brokenConditionalPut;

    /** @param bucket the fleet bucket, or null (deploy-tool's load check: every call is refused by name) */
    public R2BucketProvider(BucketStore bucket, Ticker clock) {
        this(bucket, clock, false);
    }

    private R2BucketProvider(BucketStore bucket, Ticker clock, boolean brokenConditionalPut) {
        this.bucket = bucket;
        this.clock = clock;
        this.brokenConditionalPut = brokenConditionalPut;
    }

    /**
     * BROKEN ON PURPOSE, for the precondition race test only: a conditional put judges its
     * {@code onlyIf} and then overwrites unconditionally, so two racing writers can both win.
     */
    public static R2BucketProvider brokenConditionalPutForTests(BucketStore bucket, Ticker clock) {
        return new R2BucketProvider(bucket, clock, true);
    }

    @Override
    public String type() {
        return R2BucketBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        String name = binding.settings().getString("bucket_name");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bucket_name " + name + " is not an R2 bucket name (3 to 63 of a-z 0-9 -)");
        }
        if (binding.settings().getString("jurisdiction") != null) {
            throw new IllegalArgumentException("jurisdiction is not supported: the fleet bucket is the only location");
        }
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return new R2BucketHost(bucket, binding.name(), binding.settings().getString("bucket_name"), clock, brokenConditionalPut);
    }

    /** The fleet-bucket prefix of an R2 bucket's objects (deploy-tool's {@code r2 object} commands use the same). */
    public static String prefix(String bucketName) {
        return "r2/" + bucketName + "/";
    }
}
