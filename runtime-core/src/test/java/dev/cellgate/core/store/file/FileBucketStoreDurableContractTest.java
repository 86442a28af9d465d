package dev.cellgate.core.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shared contract again with fsync on, the node's default: the object is staged and forced
 * outside the stripe lock and the directory is forced after the rename, so the races must still
 * hold with the slow part moved out of the lock.
 */
class FileBucketStoreDurableContractTest extends FileBucketStoreContractTest {
    @Override
    protected boolean fsync() {
        return true;
    }

    @Test
    void refusedWritesLeaveNoStagedFileBehind() throws Exception {
        assertThat(await(store.putIfAbsent("d/x", b("1")))).isInstanceOf(WriteOutcome.Written.class);
        assertThat(await(store.putIfAbsent("d/x", b("2")))).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(await(store.putIfVersion("d/x", b("3"), "not-the-version"))).isInstanceOf(WriteOutcome.Rejected.class);
        assertThat(await(store.putIfVersion("d/missing", b("4"), "any"))).isInstanceOf(WriteOutcome.Rejected.class);

        assertThat(s(await(store.get("d/x")).orElseThrow().bytes())).isEqualTo("1");
        try (Stream<Path> files = Files.list(bucketRoot.resolve(prefix).resolve("d"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("x");
        }
    }
}
