package dev.cellgate.core.store.file;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The embedded file:// store passes the shared contract (threads of one process). */
class FileBucketStoreContractTest extends BucketStoreContract {
    @TempDir
    static Path bucketRoot;

    /** Off here (fast); {@link FileBucketStoreDurableContractTest} runs the contract again with it on. */
    protected boolean fsync() {
        return false;
    }

    @Override
    protected BucketStore openStore(String prefix) {
        // A prefix of a directory bucket is a sub-directory.
        return new FileBucketStore("file://" + bucketRoot.resolve(prefix), bucketRoot.resolve(prefix), fsync());
    }

    @Override
    protected boolean reportsServerTime() {
        return true;
    }
}
