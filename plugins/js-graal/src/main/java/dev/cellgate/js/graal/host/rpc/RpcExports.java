package dev.cellgate.js.graal.host.rpc;

import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.js.graal.instance.JsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Every object this engine's contexts passed by reference over RPC ({@code RpcTarget}s and
 * functions), and every stub pointing at one. An {@link Export} is one object in the context that
 * exported it; a {@link Ref} is one stub for it, named by a key that travels in the structured-clone
 * bytes (tag 0x12). An export lives while it has refs: when the last is released its
 * {@code [Symbol.dispose]()} runs in its context, as workerd does. A ref is held by the
 * {@link RpcSession} of whoever received it and released when that session ends, so nothing lives
 * longer than the request (or Durable Object) that holds it.
 *
 * <p>Shared by the contexts of one engine, on their executors: every method takes the lock. It never
 * runs JavaScript; deliveries go to the owner's executor through {@link RpcBridge}.
 */
public final class RpcExports implements dev.cellgate.core.spi.js.ExportedObjects {
    /** workerd's message for a stub that was disposed (or released with the call that received it). */
    static final String DISPOSED = "RPC stub used after being disposed.";
    /** workerd's message for a stub whose exporting request is over. */
    static final String EXPORTER_GONE = "The execution context which hosts this callback is no longer running.";
    /**
     * workerd's message for a stub a request received, used after that request ended (kept in a
     * global and called from a later request): the stub belongs to the first request's I/O context.
     */
    static final String OTHER_REQUEST = "Cannot perform I/O on behalf of a different request. I/O objects (such as streams,"
            + " request/response bodies, and others) created in the context of one request handler cannot be accessed from a"
            + " different request's handler. This is a limitation of Cloudflare Workers which allows us to improve overall"
            + " performance. (I/O type: Client)";

    /**
     * Test-only negative control: false makes an ending session keep what it holds (the leak that
     * {@code RpcLifetimeTest} must catch). Never false in production.
     */
    public static volatile boolean releaseWhenSessionsEnd = true;

    /** workerd-style message for a key minted by an earlier process of this node. */
    static final String EXPORTER_RESTARTED = "The node that exported the object behind this RPC stub has restarted since; the stub is broken.";
    /** How many keys of ended exports keep their reason for callers on other nodes. */
    static final int REMEMBERED_ENDINGS = 4096;

    private final String keyPrefix;
    private final String nodePrefix;
    private final Map<String, Ref> refs = new HashMap<>();
    /**
     * Why the recent keys held on other nodes stopped answering (the exporting session ended: its
     * Durable Object was evicted, moved or reset). Bounded: an older key reads as disposed.
     */
    private final Map<String, String> endings = new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > REMEMBERED_ENDINGS;
        }
    };
    private long next;
    private int liveExports;

    /**
     * @param node names this engine in ref keys ({@code <node>/<epoch>.<n>}), so a key says where its
     *             object lives; the epoch (random per engine) keeps a key minted before a restart from
     *             ever naming an object of the new process
     */
    public RpcExports(String node) {
        this.nodePrefix = node + "/";
        this.keyPrefix = nodePrefix + Long.toString(new java.security.SecureRandom().nextLong() >>> 1, 36) + ".";
    }

    /**
     * One exported object: {@code handle} in {@code owner}'s context, or — a relay — a stub of
     * another node's object ({@code remoteKey}) that this node received: its local stubs count here,
     * calls go on to that node, and the remote stub is released once the last local one is.
     */
    static final class Export {
        final RpcBridge owner;
        final int handle;
        final RpcSession session;
        final String remoteKey;
        int refs;
        /** Why calls fail, once the exporting session ended; null while the export answers. */
        String deadReason;

        Export(RpcBridge owner, int handle, RpcSession session, String remoteKey) {
            this.owner = owner;
            this.handle = handle;
            this.session = session;
            this.remoteKey = remoteKey;
        }
    }

    static final class Ref {
        final String key;
        final Export export;
        RpcSession holder;
        boolean released;

        Ref(String key, Export export) {
            this.key = key;
            this.export = export;
        }
    }

    /** A call's destination: the export's owner and handle, or the other node's key for a relay. */
    record Target(RpcBridge owner, int handle, RpcSession session, String remoteKey) {
    }

    /** Exports {@code handle} of {@code owner}'s context; the first ref is in transit (held by nobody yet). Null once {@code session} ended. */
    synchronized String export(RpcBridge owner, int handle, RpcSession session) {
        if (session.closed) {
            return null;
        }
        Export e = new Export(owner, handle, session, null);
        session.exported.add(e);
        liveExports++;
        return newRef(e).key;
    }

    private Ref newRef(Export e) {
        Ref r = new Ref(keyPrefix + (++next), e);
        e.refs++;
        refs.put(r.key, r);
        return r;
    }

    /** A second stub for the same object, held by {@code holder} (null: in transit); null when {@code key} is no longer usable. */
    synchronized String dup(String key, RpcSession holder) {
        Ref r = refs.get(key);
        if (r == null || r.released || r.export.deadReason != null) {
            return null;
        }
        Ref d = newRef(r.export);
        hold(d, holder);
        return d.key;
    }

    /** A stub that leaves this context (passed in arguments or returned): a new key in transit, and {@code key} released. */
    synchronized String transfer(String key) {
        String moved = dup(key, null);
        if (moved != null) {
            release(key);
        }
        return moved;
    }

    /**
     * The receiver of {@code key} holds it from now on, until it is released or {@code holder} ends.
     * A key of another node becomes a relay held by {@code adopter}'s context: the answer is the
     * local key to use.
     */
    synchronized String adopt(String key, RpcSession holder, RpcBridge adopter, RpcSession relays) {
        if (!key.isEmpty() && !isLocal(key)) {
            Export relay = new Export(adopter, -1, relays, key);
            relays.exported.add(relay);
            liveExports++;
            Ref r = newRef(relay);
            hold(r, holder);
            return r.key;
        }
        Ref r = refs.get(key);
        if (r != null && !r.released && r.holder == null) {
            hold(r, holder);
        }
        return key;
    }

    private void hold(Ref r, RpcSession holder) {
        if (holder == null) {
            return;
        }
        if (holder.closed) {
            release(r.key);
            return;
        }
        r.holder = holder;
        holder.held.add(r);
    }

    /** Disposes one stub; the object's {@code [Symbol.dispose]()} runs once its last stub is gone. Idempotent. */
    @Override
    public synchronized void release(String key) {
        Ref r = refs.remove(key);
        if (r == null || r.released) {
            return;
        }
        r.released = true;
        Export e = r.export;
        if (--e.refs == 0 && e.deadReason == null) {
            e.session.exported.remove(e);
            e.deadReason = DISPOSED;
            liveExports--;
            if (e.remoteKey != null) {
                e.owner.releaseRemote(e.remoteKey);
            } else {
                e.owner.disposeLater(e.handle);
            }
        }
    }

    /** Where a call on {@code key} goes, or an error saying why it cannot go anywhere. */
    synchronized Target target(String key) {
        Ref r = refs.get(key);
        if (r == null || r.released) {
            String ended = endings.get(key);
            if (ended != null) {
                throw new JsException("Error", ended, "");
            }
            if (key.startsWith(nodePrefix) && !isLocal(key)) {
                throw new JsException("Error", EXPORTER_RESTARTED, "");
            }
            throw new JsException("Error", DISPOSED, "");
        }
        if (r.export.deadReason != null) {
            throw new JsException("Error", r.export.deadReason, "");
        }
        return new Target(r.export.owner, r.export.handle, r.export.session, r.export.remoteKey);
    }

    // ---- for other nodes (ExportedObjects) ----

    /**
     * A call from another node. A call that cannot be made fails with a {@link StubCallException}
     * (not retryable) carrying the JavaScript message, for the peer route to answer.
     */
    @Override
    public CompletableFuture<byte[]> call(String key, String op, String pathJson, byte[] arguments) {
        CompletableFuture<byte[]> result;
        try {
            Target t = target(key);
            result = t.owner().deliverCall(t, op, pathJson, arguments);
        } catch (JsException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.exceptionallyCompose(e -> {
            Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            return CompletableFuture.failedFuture(c instanceof JsException js ? new StubCallException(js.jsMessage(), false, null) : c);
        });
    }

    /**
     * Ends {@code s}: the stubs it holds are released, newest first, and what it exported stops
     * answering ({@code reason}); refs to those exports still in transit are dropped.
     */
    void close(RpcSession s, String reason) {
        close(s, reason, null);
    }

    /** As {@link #close(RpcSession, String)}; a stub {@code s} held then fails with {@code heldReason} (null: as disposed). */
    void close(RpcSession s, String reason, String heldReason) {
        List<Ref> held;
        synchronized (this) {
            if (s.closed) {
                return;
            }
            s.closed = true;
            if (!releaseWhenSessionsEnd) {
                return;
            }
            held = new ArrayList<>(s.held);
            s.held.clear();
        }
        for (int i = held.size() - 1; i >= 0; i--) {
            release(held.get(i).key);
            if (heldReason != null) {
                synchronized (this) {
                    endings.put(held.get(i).key, heldReason);
                }
            }
        }
        List<Export> relays = new ArrayList<>();
        synchronized (this) {
            if (s.exported.isEmpty()) {
                return;
            }
            for (Export e : s.exported) {
                e.deadReason = reason;
                liveExports--;
                if (e.remoteKey != null) {
                    relays.add(e);
                }
            }
            s.exported.clear();
            refs.values().removeIf(r -> {
                if (r.export.deadReason == null || r.holder != null) {
                    return false;
                }
                endings.put(r.key, r.export.deadReason); // held on another node, or in transit: remember why
                return true;
            });
        }
        for (Export relay : relays) {
            relay.owner.releaseRemote(relay.remoteKey);
        }
    }

    /** Exported objects that still answer (for tests and metrics: a leak shows here). */
    @Override
    public synchronized int liveExports() {
        return liveExports;
    }

    /** Stubs not yet released, in transit or held (for tests and metrics). */
    @Override
    public synchronized int liveRefs() {
        return refs.size();
    }

    /** Whether {@code key} was minted by this engine (else it names another node's object). */
    boolean isLocal(String key) {
        return key.startsWith(keyPrefix);
    }

    static CompletableFuture<byte[]> failed(String message) {
        return CompletableFuture.failedFuture(new JsException("Error", message, ""));
    }
}
