package dev.cellgate.core.spi.bucket;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The fleet's only shared state: an object store with conditional writes.
 *
 * <p>Keys are relative to the store's prefix, use {@code /} as separator and never start with
 * one. Versions are opaque strings (an S3 etag, a GCS generation, a random token on disk):
 * compare them for equality, never parse them.
 *
 * <p>Every write answers with a three-valued {@link WriteOutcome}. A {@link WriteOutcome.Rejected}
 * is proof that nothing was written; an {@link WriteOutcome.Ambiguous} outcome means the write
 * may or may not have happened, and the caller must re-read to find out. Reads and listings that
 * fail complete exceptionally with a {@link BucketException}.
 *
 * <p>Implementations must make {@link #putIfAbsent} and {@link #putIfVersion} atomic against
 * every other writer of the same bucket, including other processes and hosts: ownership of cells
 * rests on it. The shared contract test suite checks this with concurrent races.
 */
public interface BucketStore extends AutoCloseable {

    /** The URL this store was opened from, for messages (never contains credentials). */
    String url();

    /** Reads an object, or an empty optional when it does not exist. */
    CompletableFuture<Optional<StoredObject>> get(String key);

    /**
     * The current version of an object (what {@link #get} would report with it), or an empty
     * optional when it does not exist. The default reads the whole object; a store that can ask
     * for the version alone (an S3 HEAD) overrides it: the output gate asks this once per flush.
     */
    default CompletableFuture<Optional<String>> version(String key) {
        return get(key).thenApply(o -> o.map(StoredObject::version));
    }

    /**
     * The object's size and last-write time, or an empty optional when it does not exist: for listings
     * shown to operators, never for a decision. The default reads the object and knows no time; a
     * store whose objects carry a modification time (a file, an S3 HEAD) overrides it.
     */
    default CompletableFuture<Optional<ObjectInfo>> info(String key) {
        return get(key).thenApply(o -> o.map(x -> new ObjectInfo(x.bytes().length, ObjectInfo.UNKNOWN_TIME)));
    }

    /** Creates the object only when no object exists under the key (create-only). */
    CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes);

    /** Replaces the object only when its current version equals {@code version} (compare-and-swap). */
    CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version);

    /** Writes the object unconditionally. */
    CompletableFuture<WriteOutcome> put(String key, byte[] bytes);

    /**
     * Lists keys that start with {@code prefix}, in ascending byte order of the key.
     *
     * @param cursor {@code null} for the first page, else {@link ListPage#nextCursor()} of the previous page
     * @param limit  the largest page wanted (stores may return fewer keys)
     */
    CompletableFuture<ListPage> list(String prefix, String cursor, int limit);

    /** Deletes an object; deleting a missing object succeeds. */
    CompletableFuture<Void> delete(String key);

    @Override
    default void close() {
    }
}
