package dev.cellgate.gateway.it;

import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Publishes a deployment straight into a bucket (what deploy-tool push does, without the CLI). */
public final class TestDeployments {
    private TestDeployments() {
    }

    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, Map<String, String> vars) {
        return publish(store, name, modules, main, durableObjects, vars, Map.of());
    }

    /** With plugin jars (file name to bytes) the nodes hot-load before the code. */
    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, Map<String, String> vars, Map<String, byte[]> plugins) {
        return publish(store, name, modules, main, durableObjects, vars, plugins, List.of());
    }

    /** With {@code compatibility_flags} as given: unchecked, as a deploy-tool older than the flag check writes them. */
    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, Map<String, String> vars, Map<String, byte[]> plugins,
                                 List<String> compatibilityFlags) {
        return publish(store, name, modules, main, durableObjects, vars, plugins, compatibilityFlags, List.of());
    }

    /** With compatibility flags and cron triggers ({@code triggers.crons}, as deploy-tool writes them). */
    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, Map<String, String> vars, Map<String, byte[]> plugins,
                                 List<String> compatibilityFlags, List<String> crons) {
        return publish(store, name, modules, main, durableObjects, vars, plugins, compatibilityFlags, crons, null);
    }

    /** With the Worker's own CPU limit per event ({@code limits.cpu_ms}, as deploy-tool writes it; null: none). */
    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, Map<String, String> vars, Long cpuMs) {
        return publish(store, name, modules, main, durableObjects, vars, Map.of(), List.of(), List.of(), cpuMs);
    }

    /** With typed bindings beyond vars and Durable Object namespaces ({@code d1}, {@code kv_namespace}, …), added to theirs. */
    public static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                 Map<String, String> durableObjects, List<dev.cellgate.core.deploy.bindings.Binding> bindings) {
        return publish(store, name, modules, main, durableObjects, Map.of(), Map.of(), List.of(), List.of(), null, bindings);
    }

    private static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                  Map<String, String> durableObjects, Map<String, String> vars, Map<String, byte[]> plugins,
                                  List<String> compatibilityFlags, List<String> crons, Long cpuMs) {
        return publish(store, name, modules, main, durableObjects, vars, plugins, compatibilityFlags, crons, cpuMs, List.of());
    }

    private static String publish(BucketStore store, String name, Map<String, String> modules, String main,
                                  Map<String, String> durableObjects, Map<String, String> vars, Map<String, byte[]> plugins,
                                  List<String> compatibilityFlags, List<String> crons, Long cpuMs,
                                  List<dev.cellgate.core.deploy.bindings.Binding> extraBindings) {
        DeploymentStore d = new DeploymentStore(store);
        List<Manifest.BlobRef> pluginRefs = new ArrayList<>();
        for (Map.Entry<String, byte[]> p : plugins.entrySet()) {
            d.putBlob(p.getValue()).join();
            pluginRefs.add(new Manifest.BlobRef(p.getKey(), DeploymentStore.sha256(p.getValue()), p.getValue().length));
        }
        List<Manifest.BlobRef> refs = new ArrayList<>();
        for (Map.Entry<String, String> m : modules.entrySet()) {
            byte[] bytes = m.getValue().getBytes(StandardCharsets.UTF_8);
            d.putBlob(bytes).join();
            refs.add(new Manifest.BlobRef(m.getKey(), DeploymentStore.sha256(bytes), bytes.length));
        }
        String id = DeploymentIds.next(System.currentTimeMillis());
        Manifest legacy = new Manifest(id, name, System.currentTimeMillis(), main, refs, vars, durableObjects, null,
                "2025-04-01", compatibilityFlags,
                crons.isEmpty() ? null : new io.vertx.core.json.JsonObject().put("crons", new io.vertx.core.json.JsonArray(crons)), pluginRefs);
        if (!extraBindings.isEmpty()) {
            List<dev.cellgate.core.deploy.bindings.Binding> all = new ArrayList<>(legacy.bindings());
            all.addAll(extraBindings);
            legacy = new Manifest(id, name, legacy.createdMs(), main, refs, all, legacy.migrations(), legacy.compatibilityDate(),
                    legacy.compatibilityFlags(), legacy.triggers(), pluginRefs, legacy.settings());
        }
        Manifest manifest = cpuMs == null ? legacy : new Manifest(id, name, legacy.createdMs(), main, refs, legacy.bindings(),
                legacy.migrations(), legacy.compatibilityDate(), legacy.compatibilityFlags(), legacy.triggers(), pluginRefs,
                new dev.cellgate.core.deploy.WorkerSettings(null, List.of(), cpuMs, null, null));
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

    /** Moves current back to {@code id} (what deploy-tool rollback does). */
    public static void rollback(BucketStore store, String id) {
        DeploymentStore d = new DeploymentStore(store);
        for (int i = 0; i < 5; i++) {
            var cur = d.current().join();
            if (d.moveCurrent(cur, id, System.currentTimeMillis()).join().written()) {
                return;
            }
        }
        throw new IllegalStateException("could not roll back");
    }
}
