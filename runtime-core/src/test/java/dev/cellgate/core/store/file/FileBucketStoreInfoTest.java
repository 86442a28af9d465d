package dev.cellgate.core.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.ObjectInfo;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BucketStore#info}: the file store's size (the object's bytes, not the file's) and file time; the default's size and no time. */
class FileBucketStoreInfoTest {
    @TempDir
    Path dir;

    @Test
    void theFileStoreGivesTheObjectsSizeAndWhenItsFileWasWritten() {
        try (FileBucketStore store = new FileBucketStore("file://" + dir, dir, false)) {
            long before = System.currentTimeMillis();
            store.put("cells/A:1/x.seg", new byte[1234]).join();
            long after = System.currentTimeMillis();
            ObjectInfo info = store.info("cells/A:1/x.seg").join().orElseThrow();
            assertThat(info.size()).isEqualTo(1234);
            assertThat(info.timeKnown()).isTrue();
            assertThat(info.lastModifiedMs()).isBetween(before - 1000, after + 1000);
            assertThat(store.info("cells/A:1/missing").join()).isEmpty();
        }
    }

    @Test
    void theDefaultReadsTheObjectAndKnowsNoTime() {
        try (FileBucketStore file = new FileBucketStore("file://" + dir, dir, false)) {
            file.put("k", new byte[7]).join();
            // a store that only has get(): what the default info() does with it
            BucketStore plain = new BucketStore() {
                @Override
                public String url() {
                    return file.url();
                }

                @Override
                public CompletableFuture<Optional<StoredObject>> get(String key) {
                    return file.get(key);
                }

                @Override
                public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public CompletableFuture<Void> delete(String key) {
                    throw new UnsupportedOperationException();
                }
            };
            ObjectInfo info = plain.info("k").join().orElseThrow();
            assertThat(info.size()).isEqualTo(7);
            assertThat(info.timeKnown()).isFalse();
            assertThat(plain.info("nope").join()).isEmpty();
        }
    }
}
