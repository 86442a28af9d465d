package dev.cellgate.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decorator over a real file bucket, with faults injected where a local disk cannot produce them. */
class InstrumentedBucketStoreTest {
    @TempDir
    Path dir;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    long count(String op, String outcome) {
        return registry.get("cellgate.bucket.requests").tags("op", op, "outcome", outcome).timer().count();
    }

    double bytes(String direction) {
        return registry.get("cellgate.bucket.bytes").tags("direction", direction).counter().count();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void countsEveryOperationByKindAndOutcomeAndAnswersWhatTheStoreAnswered() {
        try (BucketStore store = new InstrumentedBucketStore(new FileBucketStore("file://" + dir, dir, false),
                new BucketMetrics(registry))) {
            assertThat(store.get("a").join()).isEmpty();
            WriteOutcome created = store.putIfAbsent("a", b("one")).join();
            assertThat(created.written()).isTrue();
            assertThat(store.putIfAbsent("a", b("two")).join()).isInstanceOf(WriteOutcome.Rejected.class);
            StoredObject read = store.get("a").join().orElseThrow();
            assertThat(new String(read.bytes(), StandardCharsets.UTF_8)).isEqualTo("one");
            assertThat(store.putIfVersion("a", b("three"), read.version()).join().written()).isTrue();
            assertThat(store.putIfVersion("a", b("four"), read.version()).join())
                    .as("a stale version: the CAS is rejected").isInstanceOf(WriteOutcome.Rejected.class);
            assertThat(store.put("b", b("bee")).join().written()).isTrue();
            assertThat(store.list("", null, 10).join().keys()).containsExactly("a", "b");
            assertThat(store.version("b").join()).isPresent();
            assertThat(store.version("zz").join()).isEmpty();
            store.delete("b").join();

            assertThat(count("version", "found")).isEqualTo(1);
            assertThat(count("version", "not_found")).isEqualTo(1);
            assertThat(count("get", "not_found")).as("a version asked is not counted as a read").isEqualTo(1);
            assertThat(count("get", "found")).isEqualTo(1);
            assertThat(count("putIfAbsent", "written")).isEqualTo(1);
            assertThat(count("putIfAbsent", "rejected")).isEqualTo(1);
            assertThat(count("putIfVersion", "written")).isEqualTo(1);
            assertThat(count("putIfVersion", "rejected")).isEqualTo(1);
            assertThat(count("put", "written")).isEqualTo(1);
            assertThat(count("list", "ok")).isEqualTo(1);
            assertThat(count("delete", "ok")).isEqualTo(1);
            assertThat(count("putIfVersion", "ambiguous")).as("every combination exists at zero").isZero();
            assertThat(bytes("written")).as("one + three + bee").isEqualTo(3 + 5 + 3);
            assertThat(bytes("read")).isEqualTo(3);
        }
    }

    @Test
    void ambiguousWritesAndFailedFuturesAreCountedAndPassedOnUnwrapped() {
        BucketException readFailure = new BucketException("injected: bucket unreachable");
        BucketStore faulty = new FaultyStore(new FileBucketStore("file://" + dir, dir, false), readFailure);
        BucketStore store = new InstrumentedBucketStore(faulty, new BucketMetrics(registry));

        WriteOutcome w = store.putIfVersion("k", b("x"), "v1").join();
        assertThat(w).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(count("putIfVersion", "ambiguous")).isEqualTo(1);

        CompletableFuture<Optional<StoredObject>> failed = store.get("k");
        Throwable seen = failed.handle((v, e) -> e).join();
        assertThat(seen).as("the caller sees the store's own exception, not a CompletionException").isSameAs(readFailure);
        assertThat(count("get", "error")).isEqualTo(1);

        Throwable listed = store.list("", null, 1).handle((v, e) -> e).join();
        assertThat(listed).isSameAs(readFailure);
        assertThat(count("list", "error")).isEqualTo(1);

        Throwable put = store.put("k", b("y")).handle((v, e) -> e).join();
        assertThat(put).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(count("put", "error")).as("a store that breaks the three-valued contract").isEqualTo(1);
    }

    /** The real store for what a disk can do; injected answers for what only a remote bucket does. */
    private static final class FaultyStore extends ForwardingBucketStore {
        private final BucketException readFailure;

        FaultyStore(BucketStore real, BucketException readFailure) {
            super(real);
            this.readFailure = readFailure;
        }


        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            return CompletableFuture.failedFuture(readFailure);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
            return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("injected: 503 Slow Down", null));
        }

        @Override
        public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
            return CompletableFuture.supplyAsync(() -> {
                throw new IllegalStateException("injected: not a WriteOutcome");
            });
        }

        @Override
        public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
            return CompletableFuture.failedFuture(readFailure);
        }
    }
}
