package dev.cellgate.core.spi.bucket;

/**
 * What a store can say of an object besides its bytes, for operators' listings ({@code deploy-tool
 * cells list}): never used to decide anything about ownership or versions.
 *
 * @param size           the object's size in bytes (what {@link BucketStore#get} would return)
 * @param lastModifiedMs when it was last written, by the store's clock (epoch ms); {@link #UNKNOWN_TIME}
 *                       when the store does not keep that
 */
public record ObjectInfo(long size, long lastModifiedMs) {
    public static final long UNKNOWN_TIME = -1;

    public boolean timeKnown() {
        return lastModifiedMs != UNKNOWN_TIME;
    }
}
