package dev.cellgate.js.graal.host.rpc;

import dev.cellgate.core.spi.js.ExportedObjects;
import dev.cellgate.js.graal.host.JsFunctions;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * {@code host.rpc()}: one context's side of RPC by reference ({@code rpc.js}). It exports the
 * context's objects into the engine's {@link RpcExports}, holds the stubs the context received in
 * the right {@link RpcSession}, and runs calls on its exported objects as events of its instance.
 *
 * <p>Sessions, as workerd scopes them: what a call receives as arguments is released when that call
 * event ends; what a Worker receives in results (or keeps with {@code dup()}) and what it exports
 * belongs to the request being served; in a Durable Object both belong to the instance, until its
 * context is dropped. Used on the instance's executor, except the delivery of calls and disposals,
 * which only post to it.
 */
public final class RpcBridge {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RpcBridge.class);
    private final JsInstance instance;
    private final RpcExports table;
    private final Supplier<JsFunctions> functions;
    private final boolean cell;
    private final RpcSession instanceSession;
    /** A Worker's request sessions and every event's argument sessions, until the event ends. */
    private final Map<JsEvent, RpcSession> requestSessions = new IdentityHashMap<>();
    private final Map<JsEvent, RpcSession> argumentSessions = new IdentityHashMap<>();
    /** A call into one of this context's objects runs in the session of whoever exported it. */
    private final Map<JsEvent, RpcSession> borrowed = new IdentityHashMap<>();

    /** @param cell the context holds a Durable Object (else a Worker) */
    public RpcBridge(JsInstance instance, RpcExports table, Supplier<JsFunctions> functions, boolean cell) {
        this.instance = instance;
        this.table = table;
        this.functions = functions;
        this.cell = cell;
        this.instanceSession = new RpcSession(instance.label());
    }

    // ---- what rpc.js calls ----

    /** Exports object {@code handle} of this context; returns the key of its first stub (in transit), or null once the session that would own it ended. */
    @HostAccess.Export
    public String export(int handle) {
        return table.export(this, handle, longSession(instance.currentEvent()));
    }

    /** {@code stub.dup()}: null when the stub is no longer usable. */
    @HostAccess.Export
    public String dup(String key) {
        return table.dup(key, longSession(instance.currentEvent()));
    }

    /** A stub passed on in arguments or a result: a new key for the receiver; this one is disposed. Null when unusable. */
    @HostAccess.Export
    public String transfer(String key) {
        return table.transfer(key);
    }

    @HostAccess.Export
    public void release(String key) {
        table.release(key);
    }

    /**
     * A stub this context deserialized: held by the running call ({@code argument}) or by the
     * request / the object. Answers the key the stub uses (a relay's for another node's object).
     */
    @HostAccess.Export
    public String adopt(String key, boolean argument) {
        JsEvent ev = instance.currentEvent();
        return table.adopt(key, argument ? argumentSession(ev) : longSession(ev), this, instanceSession);
    }

    /**
     * A call on a stub: {@code op} "call" or "get" along {@code pathJson} (a JSON array of names).
     * {@code callback(1, resultBuffer)} with the structured-clone result envelope, or
     * {@code callback(-1, message, false, jsName)} when the call could not be made.
     */
    @HostAccess.Export
    public void call(String key, String op, String pathJson, Value args, int offset, int length, Value callback) {
        JsEvent event = instance.currentEvent();
        byte[] bytes = new byte[length];
        if (length > 0) {
            args.readBuffer(offset, bytes, 0, length);
        }
        CompletableFuture<byte[]> result;
        try {
            RpcExports.Target t = table.target(key);
            result = t.owner().deliverCall(t, op, pathJson, bytes);
        } catch (JsException e) {
            result = CompletableFuture.failedFuture(e);
        }
        result.whenComplete((b, error) -> {
            if (error == null) {
                instance.post(event, () -> callback.executeVoid(1, ByteBuffer.wrap(b)));
                return;
            }
            Throwable c = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String name = c instanceof JsException js ? js.jsName() : "Error";
            String message = c instanceof JsException js ? js.jsMessage() : String.valueOf(c.getMessage());
            instance.post(event, () -> callback.executeVoid(-1, message, false, name));
        });
    }

    // ---- deliveries into this context (any thread) ----

    /** Runs a call on exported object {@code t.handle()} as a new event of this instance; the future has the result envelope. */
    CompletableFuture<byte[]> deliverCall(RpcExports.Target t, String op, String pathJson, byte[] args) {
        if (t.remoteKey() != null) {
            // a relay: the object is on another node, which the host reaches (never re-sent once delivered)
            return instance.host().stubs().callExport(ExportedObjects.nodeOf(t.remoteKey()), t.remoteKey(), op, pathJson, args);
        }
        CompletableFuture<byte[]> out = new CompletableFuture<>();
        executeOrFail(out, () -> {
            ResultEvent event = new ResultEvent(instance, null, "rpc " + op + " " + pathJson);
            borrowed.put(event, t.session());
            event.whenEnded(() -> borrowed.remove(event));
            event.future().whenComplete((b, e) -> {
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(b);
                }
            });
            instance.deliver(event, () -> functions.get().dispatchExport().executeVoid(event, t.handle(), op, pathJson, ByteBuffer.wrap(args)));
        });
        return out;
    }

    /** The last stub of exported object {@code handle} is gone: its {@code [Symbol.dispose]()} runs, and the context forgets it. */
    void disposeLater(int handle) {
        executeOrFail(new CompletableFuture<>(), () -> {
            ResultEvent event = new ResultEvent(instance, null, "rpc dispose");
            instance.deliver(event, () -> functions.get().dispatchExport().executeVoid(event, handle, "dispose", "[]", ByteBuffer.allocate(0)));
        });
    }

    /** The last local stub of another node's object is gone: that node releases its stub (idempotent, best effort). */
    void releaseRemote(String remoteKey) {
        instance.host().stubs().releaseExport(ExportedObjects.nodeOf(remoteKey), remoteKey).exceptionally(e -> {
            LOG.atDebug().setMessage("rpc.release_remote.failed").addKeyValue("key", remoteKey).addKeyValue("error", e.toString()).log();
            return null;
        });
    }

    private void executeOrFail(CompletableFuture<byte[]> out, Runnable task) {
        try {
            instance.host().executor().execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            out.completeExceptionally(new JsException("Error", RpcExports.EXPORTER_GONE, ""));
        }
    }

    /**
     * A service binding's RPC call into this Worker ({@code callee}, an event of this context) keeps
     * what it exports and what it receives in results in {@code caller}'s session: the caller's stubs
     * to the entrypoint's objects then work until the caller's request (or Durable Object) ends or
     * disposes them, as on workerd, where the callee's request context lives while they exist.
     */
    public void lend(JsEvent callee, JsEvent caller) {
        borrowed.put(callee, longSession(caller));
        callee.whenEnded(() -> borrowed.remove(callee));
    }

    // ---- sessions ----

    private RpcSession longSession(JsEvent ev) {
        RpcSession lent = borrowed.get(ev);
        if (lent != null) {
            return lent;
        }
        return cell ? instanceSession : sessionOf(requestSessions, ev, RpcExports.OTHER_REQUEST);
    }

    private RpcSession argumentSession(JsEvent ev) {
        return sessionOf(argumentSessions, ev, null);
    }

    /** @param heldReason why a stub the session held fails once it ended (null: it reads as disposed) */
    private RpcSession sessionOf(Map<JsEvent, RpcSession> sessions, JsEvent ev, String heldReason) {
        RpcSession s = sessions.get(ev);
        if (s == null) {
            RpcSession created = new RpcSession(ev.label());
            s = created;
            if (ev.ended()) {
                table.close(created, RpcExports.EXPORTER_GONE); // a result that arrived after its request: released at once
            } else {
                sessions.put(ev, created);
                ev.whenEnded(() -> {
                    sessions.remove(ev);
                    table.close(created, RpcExports.EXPORTER_GONE, heldReason);
                });
            }
        }
        return s;
    }

    /** The context is dropped (the instance closed or its context replaced): everything it held or exported ends. */
    public void release() {
        for (RpcSession s : requestSessions.values().toArray(RpcSession[]::new)) {
            table.close(s, RpcExports.EXPORTER_GONE);
        }
        for (RpcSession s : argumentSessions.values().toArray(RpcSession[]::new)) {
            table.close(s, RpcExports.EXPORTER_GONE);
        }
        requestSessions.clear();
        argumentSessions.clear();
        table.close(instanceSession, cell
                ? "The Durable Object that exported this object is no longer running here (it was evicted, moved or reset); the stub is broken."
                : RpcExports.EXPORTER_GONE);
    }
}
