package dev.cellgate.core.deploy;

import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Deployments in the bucket: content-addressed blobs, manifests, and the {@code current}
 * pointer moved by compare-and-swap (two concurrent pushes: both manifests exist, exactly one
 * is current, the loser learns it lost).
 */
public final class DeploymentStore {
    private final BucketStore store;

    public DeploymentStore(BucketStore store) {
        this.store = store;
    }

    public CompletableFuture<Optional<StoredRecord<CurrentDeployment>>> current() {
        return store.get(Keys.CURRENT_DEPLOYMENT).thenApply(o -> o.map(so ->
                new StoredRecord<>(CurrentDeployment.decode(so.bytes()), so.version())));
    }

    public CompletableFuture<Manifest> manifest(String id) {
        return store.get(Keys.manifest(id)).thenApply(o -> Manifest.decode(o.orElseThrow(() ->
                new IllegalStateException("deployment " + id + " has no manifest in " + store.url())).bytes()));
    }

    /** The manifest and module sources, every blob checked against its digest. */
    public CompletableFuture<Deployment> load(String id) {
        return manifest(id).thenCompose(m -> {
            List<CompletableFuture<byte[]>> reads = new ArrayList<>();
            for (Manifest.BlobRef ref : m.modules()) {
                reads.add(blob(ref));
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(x -> {
                Map<String, byte[]> modules = new LinkedHashMap<>();
                for (int i = 0; i < reads.size(); i++) {
                    modules.put(m.modules().get(i).path(), reads.get(i).join());
                }
                return new Deployment(m, modules);
            });
        });
    }

    /** The values of the secrets {@code m} names, by name ({@link SecretStore#values}); a missing version is left out. */
    public CompletableFuture<Map<String, String>> secretValues(Manifest m) {
        return new SecretStore(store).values(m);
    }

    public CompletableFuture<byte[]> blob(Manifest.BlobRef ref) {
        return store.get(Keys.blob(ref.sha256())).thenApply(o -> {
            StoredObject so = o.orElseThrow(() -> new IllegalStateException("blob " + ref.sha256() + " (" + ref.path() + ") is missing"));
            if (!sha256(so.bytes()).equals(ref.sha256())) {
                throw new IllegalStateException("blob " + ref.sha256() + " (" + ref.path() + ") does not match its digest");
            }
            return so.bytes();
        });
    }

    /** Uploads a blob unless it exists; completes with true when it was uploaded. */
    public CompletableFuture<Boolean> putBlob(byte[] bytes) {
        String key = Keys.blob(sha256(bytes));
        return store.get(key).thenCompose(o -> {
            if (o.isPresent()) {
                return CompletableFuture.completedFuture(false);
            }
            return store.putIfAbsent(key, bytes).thenApply(w -> {
                if (w instanceof WriteOutcome.Ambiguous a) {
                    throw new IllegalStateException("upload of blob " + key + " is ambiguous: " + a.reason());
                }
                return w.written();
            });
        });
    }

    public CompletableFuture<WriteOutcome> putManifest(Manifest m) {
        return store.putIfAbsent(Keys.manifest(m.id()), m.encode());
    }

    /**
     * Writes a new deployment's manifest (create-only under its fresh id). A rejection cannot be
     * ours; an ambiguous write counts only if these bytes are there. Otherwise it completes with
     * an {@link IllegalStateException}.
     */
    public CompletableFuture<Void> storeManifest(Manifest m) {
        byte[] bytes = m.encode();
        return store.putIfAbsent(Keys.manifest(m.id()), bytes).thenCompose(w -> w.written() ? CompletableFuture.<Void>completedFuture(null)
                : store.get(Keys.manifest(m.id())).thenAccept(there -> {
                    if (!(w instanceof WriteOutcome.Ambiguous && there.isPresent() && java.util.Arrays.equals(there.get().bytes(), bytes))) {
                        throw new IllegalStateException("could not write the manifest of " + m.id() + ": " + w);
                    }
                }));
    }

    /**
     * Moves {@code current} to {@code id} by CAS on the version read as {@code expected}
     * (empty when there was none). Rejected means another push won: the caller re-reads and retries.
     */
    public CompletableFuture<WriteOutcome> moveCurrent(Optional<StoredRecord<CurrentDeployment>> expected, String id, long nowMs) {
        String previous = expected.map(r -> r.value().deployment()).orElse(null);
        byte[] rec = new CurrentDeployment(id, previous, nowMs).encode();
        return expected.isPresent()
                ? store.putIfVersion(Keys.CURRENT_DEPLOYMENT, rec, expected.get().version())
                : store.putIfAbsent(Keys.CURRENT_DEPLOYMENT, rec);
    }

    /** Ids of every deployment with a manifest, oldest first. */
    public CompletableFuture<List<String>> list() {
        return listFrom(null, new ArrayList<>());
    }

    private CompletableFuture<List<String>> listFrom(String cursor, List<String> acc) {
        return store.list(Keys.DEPLOY, cursor, 1000).thenCompose(page -> {
            for (String k : page.keys()) {
                if (k.endsWith("/manifest.json")) {
                    acc.add(k.substring(Keys.DEPLOY.length(), k.length() - "/manifest.json".length()));
                }
            }
            return page.last() ? CompletableFuture.completedFuture(acc) : listFrom(page.nextCursor(), acc);
        });
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
