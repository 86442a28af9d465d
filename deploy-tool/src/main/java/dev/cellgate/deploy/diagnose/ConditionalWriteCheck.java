package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.StorageProbe;

/**
 * The storage step of {@code diagnose} is the node's own start-up probe ({@link StorageProbe}):
 * one implementation, so what diagnose accepts is exactly what a node accepts — create-only once
 * then rejected, compare-and-swap on the current version and rejected on a replaced one, 16 racing
 * compare-and-swaps with exactly one winner per round (8 rounds with clear answers; a round with a
 * lost answer runs again), the scratch key {@code probe/<who>-<nonce>} deleted at the end.
 */
public final class ConditionalWriteCheck implements StorageCheck {

    @Override
    public Result run(BucketStore store, String who) {
        ProbeResult r = StorageProbe.run(store, who);
        String summary = r.ok() ? "conditional writes are atomic on " + r.storeUrl() + " (" + r.steps().size() + " steps)" : r.summary();
        return new Result(summary, r.steps().stream().map(s -> new Step(s.name(), s.ok(), s.detail(), s.ms())).toList());
    }
}
