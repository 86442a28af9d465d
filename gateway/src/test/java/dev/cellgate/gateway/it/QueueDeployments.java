package dev.cellgate.gateway.it;

import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.WorkerSettings;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Publishes a deployment with queue consumers straight into a bucket (what deploy-tool push writes for {@code queues}). */
final class QueueDeployments {
    private QueueDeployments() {
    }

    static String publish(BucketStore store, String name, Map<String, String> modules, String main, Map<String, String> durableObjects,
                          List<Binding> bindings, List<QueueConsumer> consumers) {
        DeploymentStore d = new DeploymentStore(store);
        List<Manifest.BlobRef> refs = new ArrayList<>();
        for (Map.Entry<String, String> m : modules.entrySet()) {
            byte[] bytes = m.getValue().getBytes(StandardCharsets.UTF_8);
            d.putBlob(bytes).join();
            refs.add(new Manifest.BlobRef(m.getKey(), DeploymentStore.sha256(bytes), bytes.length));
        }
        String id = DeploymentIds.next(System.currentTimeMillis());
        Manifest legacy = new Manifest(id, name, System.currentTimeMillis(), main, refs, Map.of(), durableObjects, null, "2025-04-01",
                List.of(), null, List.of());
        List<Binding> all = new ArrayList<>(legacy.bindings());
        all.addAll(bindings);
        Manifest manifest = new Manifest(id, name, legacy.createdMs(), main, refs, all, legacy.migrations(), legacy.compatibilityDate(),
                legacy.compatibilityFlags(), legacy.triggers(), List.of(), new WorkerSettings(null, consumers, null, null, null));
        if (!d.putManifest(manifest).join().written()) {
            throw new IllegalStateException("manifest not written");
        }
        for (int i = 0; i < 5; i++) {
            var cur = d.current().join();
            if (d.moveCurrent(cur, id, System.currentTimeMillis()).join().written()) {
                return id;
            }
        }
        throw new IllegalStateException("could not move current");
    }
}
