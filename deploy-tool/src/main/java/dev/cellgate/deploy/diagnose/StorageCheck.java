package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.StorageProbe;

/**
 * The storage step of {@code diagnose}: proves on the live bucket that conditional writes are
 * atomic, writing only under {@code probe/} (skipped with {@code --read-only}). The real one is
 * {@link #NODE_PROBE}, the node's own start-up probe, so what diagnose accepts is exactly what a
 * node accepts; the interface lets tests hand diagnose a check against a deliberately broken store.
 */
@FunctionalInterface
public interface StorageCheck {

    /** The node's start-up probe ({@link StorageProbe}), same rounds, same verdicts. */
    StorageCheck NODE_PROBE = StorageProbe::run;

    ProbeResult run(BucketStore store, String who);
}
