package dev.cellgate.core.deploy;

import dev.cellgate.core.plugin.PluginHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plugin jars a deployment carries ({@link Manifest#plugins()}): downloaded from their blobs
 * (digest checked), kept under the node's work dir by digest, and hot-loaded through PF4J before
 * the deployment's code loads — so a deployment can bring, say, a bucket back end it needs.
 * A jar already loaded (same digest) is not loaded again.
 */
public final class DeploymentPlugins {
    private static final Logger LOG = LoggerFactory.getLogger(DeploymentPlugins.class);

    private final DeploymentStore store;
    private final PluginHost host;
    private final Path dir;
    private final Executor io;
    private final Set<String> loaded = ConcurrentHashMap.newKeySet();

    public DeploymentPlugins(DeploymentStore store, PluginHost host, Path dir, Executor io) {
        this.store = store;
        this.host = host;
        this.dir = dir;
        this.io = io;
    }

    /** Loads every plugin the manifest lists; fails (the deployment is refused here) if one cannot be loaded. */
    public CompletableFuture<Void> install(Manifest m) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Manifest.BlobRef ref : m.plugins()) {
            if (loaded.contains(ref.sha256())) {
                continue;
            }
            all.add(store.blob(ref).thenAcceptAsync(bytes -> {
                try {
                    Files.createDirectories(dir);
                    Path jar = dir.resolve(ref.sha256() + ".jar");
                    Path tmp = dir.resolve(ref.sha256() + ".jar.part");
                    Files.write(tmp, bytes);
                    Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    String id = host.loadNow(jar);
                    loaded.add(ref.sha256());
                    LOG.atInfo().setMessage("deployment.plugin_loaded").addKeyValue("deployment", m.id())
                            .addKeyValue("plugin", id).addKeyValue("file", ref.path()).log();
                } catch (IOException e) {
                    throw new IllegalStateException("plugin " + ref.path() + " of deployment " + m.id() + ": " + e.getMessage(), e);
                }
            }, io));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }
}
