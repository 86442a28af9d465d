package dev.cellgate.gateway.node;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.StorageProbe;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * The conditional-write probe (SPEC §3), run on its own thread while the node does what needs no
 * proven bucket: create the JavaScript engine, fetch and compile the first deployment (issue 22:
 * on S3 the probe is seconds of round trips). What rests on the proof — the fleet key, cells, the
 * lease, both listeners — starts only after {@link #awaitOk} returned, so a bucket without atomic
 * conditional writes is still refused before any cell is served.
 */
final class BackgroundProbe {
    private final CompletableFuture<ProbeResult> result = new CompletableFuture<>();
    private volatile long startedMs;
    private volatile long endedMs;

    private BackgroundProbe() {
    }

    /** Starts probing {@code bucket} now, as node {@code nodeId}. */
    static BackgroundProbe start(BucketStore bucket, String nodeId, LongSupplier clock) {
        BackgroundProbe p = new BackgroundProbe();
        Thread t = new Thread(() -> {
            p.startedMs = clock.getAsLong();
            try {
                ProbeResult r = StorageProbe.run(bucket, nodeId);
                p.endedMs = clock.getAsLong();
                p.result.complete(r);
            } catch (Throwable e) {
                p.endedMs = clock.getAsLong();
                p.result.completeExceptionally(e);
            }
        }, "storage-probe");
        t.setDaemon(true);
        t.start();
        return p;
    }

    /** Waits for the probe; a bucket that failed it stops the start. Records the probe's own span. */
    void awaitOk(StartupTimeline timeline) throws StartupException {
        ProbeResult r;
        try {
            r = result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException(ExitCodes.STARTUP_FAILED, "interrupted while the storage probe ran");
        } catch (ExecutionException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "the storage probe failed: " + e.getCause());
        }
        timeline.span("probe", startedMs, endedMs);
        if (!r.ok()) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, r.summary());
        }
    }
}
