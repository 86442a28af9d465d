package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/**
 * What an engine offers other nodes for the objects its instances passed by reference over RPC
 * (JS RPC stubs: an {@code RpcTarget}, a function). A stub's key names its node
 * ({@link #nodeOf}); a peer route hands a call or release for a key of this node here.
 */
public interface ExportedObjects {

    /**
     * Runs a call on the object behind {@code key}: op "call" or "get" along {@code pathJson}; the
     * result is the structured-clone result envelope (a throw travels inside it). Fails with a
     * {@link StubCallException} (not retryable) whose message is the JavaScript one, saying why,
     * when this node does not hold {@code key}: the stub was disposed, its object's session is over
     * (a Durable Object that was evicted, moved or reset), or the key is from before a restart.
     */
    CompletableFuture<byte[]> call(String key, String op, String pathJson, byte[] arguments);

    /** The holder disposed stub {@code key} (idempotent). */
    void release(String key);

    /** Objects exported that still answer (for {@code /state}: a leak, or a lost release, shows here). */
    int liveExports();

    /** Stubs for them not yet released, held here or on another node. */
    int liveRefs();

    /** The node that exported the object behind {@code key} ({@code <node>/<epoch>.<n>}). */
    static String nodeOf(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
