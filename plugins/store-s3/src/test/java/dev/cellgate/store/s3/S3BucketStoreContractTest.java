package dev.cellgate.store.s3;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreContract;

/** The shared contract, races included, against S3Proxy on Azurite over real HTTP on loopback. */
class S3BucketStoreContractTest extends BucketStoreContract {
    @Override
    protected BucketStore openStore(String prefix) {
        return S3TestServers.open(S3TestServers.azureEndpoint(), prefix);
    }

    @Override
    protected boolean reportsServerTime() {
        return true;
    }
}
