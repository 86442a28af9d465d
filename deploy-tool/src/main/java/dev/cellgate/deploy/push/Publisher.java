package dev.cellgate.deploy.push;

import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Publishes a bundle: blobs (skipping those already present), then the manifest, then moves
 * {@code deploy/current.json} by compare-and-swap. A lost race re-reads and retries, so two
 * concurrent pushes both land in history and exactly one ends up current (the later one).
 */
public final class Publisher {
    static final int MAX_CAS_ATTEMPTS = 5;

    private final DeploymentStore store;
    private final Consumer<String> progress;

    public Publisher(DeploymentStore store, Consumer<String> progress) {
        this.store = store;
        this.progress = progress;
    }

    public record Result(String deployment, String previous, int blobsUploaded, int blobsReused) {
    }

    public Result publish(Bundle b) {
        long now = System.currentTimeMillis();
        String id = DeploymentIds.next(now);
        List<Manifest.BlobRef> refs = new ArrayList<>();
        int uploaded = 0;
        int i = 0;
        for (Map.Entry<String, byte[]> m : b.modules().entrySet()) {
            i++;
            boolean fresh = store.putBlob(m.getValue()).join();
            uploaded += fresh ? 1 : 0;
            refs.add(new Manifest.BlobRef(m.getKey(), DeploymentStore.sha256(m.getValue()), m.getValue().length));
            progress.accept(String.format("[%d/%d] %s %s (%d bytes)", i, b.modules().size(), fresh ? "uploaded" : "exists  ",
                    m.getKey(), m.getValue().length));
        }
        Manifest manifest = new Manifest(id, b.name(), now, b.main(), refs, b.config().vars(), b.config().durableObjects(),
                b.config().migrations(), b.config().compatibilityDate() == null ? "2024-01-01" : b.config().compatibilityDate(),
                b.config().compatibilityFlags(), b.config().triggers(), List.of());
        WriteOutcome mw = store.putManifest(manifest).join();
        if (!mw.written()) {
            throw new IllegalStateException("could not write the manifest of " + id + ": " + mw);
        }
        for (int attempt = 1; attempt <= MAX_CAS_ATTEMPTS; attempt++) {
            Optional<StoredRecord<CurrentDeployment>> cur = store.current().join();
            WriteOutcome w = store.moveCurrent(cur, id, System.currentTimeMillis()).join();
            if (w.written()) {
                return new Result(id, cur.map(r -> r.value().deployment()).orElse(null), uploaded, refs.size() - uploaded);
            }
            if (w instanceof WriteOutcome.Ambiguous) {
                Optional<StoredRecord<CurrentDeployment>> now2 = store.current().join();
                if (now2.isPresent() && now2.get().value().deployment().equals(id)) {
                    return new Result(id, now2.get().value().previous(), uploaded, refs.size() - uploaded);
                }
            }
            progress.accept("another push moved deploy/current.json first; retrying (" + attempt + ")");
        }
        throw new IllegalStateException("deployment " + id + " is stored but could not become current after "
                + MAX_CAS_ATTEMPTS + " attempts (concurrent pushes); run deploy-tool rollback " + id);
    }
}
