package dev.cellgate.deploy.push;

import dev.cellgate.core.assets.AssetObjects;
import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.SecretRelease;
import dev.cellgate.core.deploy.WorkerSettings;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.progress.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Publishes a validated bundle in three steps, each safe to repeat: blobs (content-addressed,
 * skipped when present), the manifest (create-only under a fresh id), then {@code current}
 * moved by compare-and-swap. A lost race re-reads and retries: two concurrent pushes both land
 * in history, exactly one ends up current, and the other's {@code previous} names the first.
 * A push that still cannot win after {@link #MAX_CAS_ATTEMPTS} leaves its deployment stored but
 * not current, and says so (exit code 4).
 */
public final class Publisher {
    static final int MAX_CAS_ATTEMPTS = 8;

    private final BucketStore bucket;
    private final DeploymentStore store;
    private final Progress progress;
    private final CurrentMove mover;
    private final Runnable beforeMove;
    private final boolean settleSecrets;

    public Publisher(BucketStore bucket, Progress progress) {
        this(bucket, progress, null, () -> { });
    }

    /** @param mover null for compare-and-swap; {@code beforeMove} runs after each read of current (tests line racers up there) */
    Publisher(BucketStore bucket, Progress progress, CurrentMove mover, Runnable beforeMove) {
        this(bucket, progress, mover, beforeMove, true);
    }

    /**
     * @param settleSecrets false only for the deliberately broken variant a test runs: a secret put
     *                      while the push was writing is then missing from the deployment left current
     */
    Publisher(BucketStore bucket, Progress progress, CurrentMove mover, Runnable beforeMove, boolean settleSecrets) {
        this.bucket = bucket;
        this.store = new DeploymentStore(bucket);
        this.progress = progress;
        this.mover = mover == null ? CurrentMove.compareAndSwap(store) : mover;
        this.beforeMove = beforeMove;
        this.settleSecrets = settleSecrets;
    }

    /**
     * @param secretsSettled the deployment published after this one because the Worker's secrets
     *                       changed while this push was writing (it is then the current one), else null
     */
    public record Result(String deployment, String previous, int blobsUploaded, int blobsReused, int casRetries, Manifest manifest,
                         String secretsSettled) {
        /** The deployment current when the push finished. */
        public String current() {
            return secretsSettled != null ? secretsSettled : deployment;
        }
    }

    /** The assets uploaded: how many objects were new, and the digest of the asset manifest. */
    private record AssetsUploaded(int uploaded, int total, String manifest) {
    }

    /** A push of a Worker without secrets in force. */
    public Result publish(Bundle b) {
        return publish(b, Map.of());
    }

    /**
     * @param secrets the Worker's secrets in force when the push was checked (name to version,
     *                {@link PushSecrets#inForce}): the manifest names each, and after {@code current}
     *                moved, a secret changed meanwhile is settled by one more deployment
     */
    public Result publish(Bundle b, Map<String, String> secrets) {
        long now = System.currentTimeMillis();
        String id = DeploymentIds.next(now);
        int assetItems = b.assets() == null ? 0 : b.assets().files().size() + 1;
        progress.begin(b.modules().size() + b.plugins().size() + assetItems, b.totalBytes());
        List<Manifest.BlobRef> modules = new ArrayList<>();
        List<Manifest.BlobRef> plugins = new ArrayList<>();
        int uploaded = 0;
        AssetsUploaded assets = null;
        try {
            for (Map.Entry<String, byte[]> m : b.modules().entrySet()) {
                uploaded += upload(m.getKey(), m.getValue(), b.type(m.getKey()), modules) ? 1 : 0;
            }
            for (Bundle.PluginJar p : b.plugins()) {
                uploaded += upload(p.fileName(), p.bytes(), null, plugins) ? 1 : 0;
            }
            if (b.assets() != null) {
                assets = uploadAssets(b.assets());
            }
        } finally {
            progress.end();
        }
        Manifest legacy = new Manifest(id, b.name(), now, b.main(), modules, b.config().vars(), b.config().durableObjects(),
                b.config().migrations(), b.config().compatibilityDate() == null ? "2024-01-01" : b.config().compatibilityDate(),
                b.config().compatibilityFlags(), b.config().triggers(), plugins);
        // KV namespaces, R2 buckets: beside the vars and Durable Objects
        List<dev.cellgate.core.deploy.bindings.Binding> all = new ArrayList<>(legacy.bindings());
        all.addAll(b.config().bindings());
        // limits.cpu_ms, the environment pushed and the hosting-metadata keys, recorded as written (docs/configuration.md)
        Manifest manifest = new Manifest(id, legacy.name(), now, legacy.main(), legacy.modules(), all,
                legacy.migrations(), legacy.compatibilityDate(), legacy.compatibilityFlags(), legacy.triggers(), legacy.plugins(),
                new WorkerSettings(null, b.config().queueConsumers(), b.config().cpuMs(), b.config().environment(), b.config().hosting()));
        if (assets != null) {
            manifest = withAssets(manifest, b.config().assets(), assets.manifest(), !b.assetsOnly());
            uploaded += assets.uploaded();
        }
        // the secrets last, by name: the order SecretRelease gives, so an unchanged set is recognised as one
        manifest = manifest.withBindings(id, now, SecretRelease.withSecrets(manifest.bindings(), secrets));
        writeManifest(manifest);
        int total = modules.size() + plugins.size() + (assets == null ? 0 : assets.total());
        for (int attempt = 1; attempt <= MAX_CAS_ATTEMPTS; attempt++) {
            Optional<StoredRecord<CurrentDeployment>> cur = store.current().join();
            beforeMove.run();
            WriteOutcome w = mover.move(cur, id, System.currentTimeMillis()).join();
            String previous = cur.map(r -> r.value().deployment()).orElse(null);
            if (w.written()) {
                return new Result(id, previous, uploaded, total - uploaded, attempt - 1, manifest, settle(b.name()));
            }
            if (w instanceof WriteOutcome.Ambiguous) {
                // The write may have landed: only a re-read can tell.
                Optional<StoredRecord<CurrentDeployment>> after = store.current().join();
                if (after.isPresent() && after.get().value().deployment().equals(id)) {
                    return new Result(id, after.get().value().previous(), uploaded, total - uploaded, attempt - 1, manifest,
                            settle(b.name()));
                }
            }
            progress.note("deploy/current.json moved while this push was writing (another push?); retrying ("
                    + attempt + "/" + MAX_CAS_ATTEMPTS + ")");
            backoff(attempt);
        }
        throw new CommandException(ExitCodes.CONFLICT, "deployment " + id + " is stored but could not become current after "
                + MAX_CAS_ATTEMPTS + " attempts (other pushes kept winning); make it current with: deploy-tool rollback " + id);
    }

    /**
     * A {@code secret put} or {@code delete} that ran while this push was writing published its
     * deployment from the one current before this push, and this push then replaced it with the
     * secrets it read earlier. Publishing once more with the secrets in force now puts the change
     * back (nothing is published when they are the ones this push named).
     */
    private String settle(String worker) {
        if (!settleSecrets) {
            return null;
        }
        SecretRelease.Outcome o;
        try {
            o = new SecretRelease(bucket, Ticker.SYSTEM).publish(worker, java.util.Set.of());
        } catch (SecretRelease.ClashException e) {
            throw CommandException.refused("the push is current, but a secret set while it was writing clashes with it: " + e.getMessage());
        }
        if (o.published()) {
            progress.note("a secret of " + worker + " changed while this push was writing: " + o.deployment()
                    + " is this deployment with the secrets in force now");
            return o.deployment();
        }
        return null;
    }

    private boolean upload(String path, byte[] bytes, dev.cellgate.core.spi.js.ModuleType type, List<Manifest.BlobRef> refs) {
        boolean fresh = store.putBlob(bytes).join();
        refs.add(new Manifest.BlobRef(path, DeploymentStore.sha256(bytes), bytes.length, type));
        progress.advance(path, bytes.length, fresh);
        return fresh;
    }

    /**
     * Every file under {@code assets/<sha256>} unless an object is already there (the key is the
     * content, so an object there holds these bytes), then the asset manifest the same way.
     */
    private AssetsUploaded uploadAssets(AssetsDirectory dir) {
        int uploaded = 0;
        try {
            for (Map.Entry<String, java.nio.file.Path> f : dir.files().entrySet()) {
                dev.cellgate.core.logic.assets.AssetEntry e = dir.manifest().get(f.getKey());
                boolean fresh = AssetObjects.store(bucket, e.sha256(), () -> AssetsDirectory.read(f.getValue()));
                progress.advance("assets" + f.getKey(), e.size(), fresh);
                uploaded += fresh ? 1 : 0;
            }
            byte[] manifest = dir.manifest().encode();
            String digest = DeploymentStore.sha256(manifest);
            boolean fresh = AssetObjects.store(bucket, digest, () -> manifest);
            progress.advance("assets manifest (" + dir.files().size() + " files)", manifest.length, fresh);
            return new AssetsUploaded(uploaded + (fresh ? 1 : 0), dir.files().size() + 1, digest);
        } catch (IllegalStateException e) {
            throw CommandException.failed(e.getMessage(), e);
        }
    }

    private static Manifest withAssets(Manifest m, dev.cellgate.deploy.wrangler.AssetsKey key, String assetManifest,
                                       boolean hasUserWorker) {
        List<dev.cellgate.core.deploy.bindings.Binding> bindings = new ArrayList<>(m.bindings());
        if (key.binding() != null) {
            bindings.add(new dev.cellgate.core.deploy.bindings.AssetsBinding(key.binding()));
        }
        dev.cellgate.core.deploy.WorkerSettings s = m.settings();
        return new Manifest(m.id(), m.name(), m.createdMs(), m.main(), m.modules(), bindings, m.migrations(),
                m.compatibilityDate(), m.compatibilityFlags(), m.triggers(), m.plugins(),
                new dev.cellgate.core.deploy.WorkerSettings(key.toConfig(assetManifest, hasUserWorker), s.queueConsumers(), s.cpuMs(),
                        s.environment(), s.hosting()));
    }

    private void writeManifest(Manifest m) {
        try {
            store.storeManifest(m).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IllegalStateException refused) {
                throw CommandException.failed(refused.getMessage(), null);
            }
            throw e;
        }
    }

    private static void backoff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(10, 20L << Math.min(attempt, 5)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommandException.failed("interrupted while retrying", e);
        }
    }
}
