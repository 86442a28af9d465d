package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.js.graal.RuntimeScripts;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code host} object the runtime scripts receive: everything JavaScript asks of Java. One per
 * context. Arguments are validated on the JavaScript side, which turns bad input into the right
 * JavaScript error; a Java exception here is a bug, not a user error.
 */
public final class HostBridge {
    private static final Logger CONSOLE = LoggerFactory.getLogger("cellgate.worker.console");

    private final JsInstance instance;
    private final OutboundHttp http;
    private final RuntimeScripts runtime;
    private final Timers timers;
    private final StubCalls stubs;
    private final WebSocketBridge webSockets;
    private dev.cellgate.js.graal.host.crypto.WebCryptoHost webCrypto;
    private dev.cellgate.js.graal.host.cache.NodeCache nodeCache;
    private dev.cellgate.js.graal.host.cache.CacheHost cacheHost;
    private final Map<Integer, OutboundFetch> fetches = new HashMap<>();
    private JsFunctions fns;
    private dev.cellgate.js.graal.host.rpc.RpcExports rpcExports;
    private dev.cellgate.js.graal.host.rpc.RpcBridge rpc;
    private boolean cell;
    private int nextFetchId;
    private Object bundleModules;
    private BindingBridge bindings;
    private ServiceCalls services;
    private final PitrCalls pitr;

    public HostBridge(JsInstance instance, OutboundHttp http, RuntimeScripts runtime) {
        this.instance = instance;
        this.http = http;
        this.runtime = runtime;
        this.timers = new Timers(http.vertx(), instance, () -> fns);
        this.stubs = new StubCalls(instance);
        this.pitr = new PitrCalls(instance);
        this.webSockets = new WebSocketBridge(instance);
    }

    /** Binds the runtime's entry points once the scripts have run. */
    public void bind(JsFunctions functions) {
        this.fns = functions;
    }

    public JsFunctions functions() {
        return fns;
    }

    /** Cancels what this context left pending (timers, outbound requests). */
    public void release() {
        timers.clearAll();
        fetches.values().forEach(OutboundFetch::abort);
        fetches.clear();
        webSockets.release();
        if (rpc != null) {
            rpc.release();
        }
    }

    /**
     * The engine's table of objects passed by reference (RPC), and whether this context holds a
     * Durable Object; set before the scripts run.
     */
    public void rpcExports(dev.cellgate.js.graal.host.rpc.RpcExports exports, boolean cell) {
        this.rpcExports = exports;
        this.cell = cell;
    }

    /** RPC by reference: exports, stubs and their sessions ({@code rpc.js}); made on first use. */
    @HostAccess.Export
    public dev.cellgate.js.graal.host.rpc.RpcBridge rpc() {
        if (rpc == null) {
            rpc = new dev.cellgate.js.graal.host.rpc.RpcBridge(instance, rpcExports, () -> fns, cell);
        }
        return rpc;
    }

    /** Service bindings to this Worker itself ({@code service-bindings.js}); made on first use. */
    @HostAccess.Export
    public ServiceCalls services() {
        if (services == null) {
            services = new ServiceCalls(instance, stubs, () -> fns, this::rpc);
        }
        return services;
    }

    /** WebSocketPair, accepted sockets and the hibernation API ({@code websocket.js}). */
    @HostAccess.Export
    public WebSocketBridge webSockets() {
        return webSockets;
    }

    /** crypto.subtle and crypto.DigestStream on the JCA ({@code crypto*.js}); made on first use. */
    @HostAccess.Export
    public dev.cellgate.js.graal.host.crypto.WebCryptoHost webCrypto() {
        if (webCrypto == null) {
            webCrypto = new dev.cellgate.js.graal.host.crypto.WebCryptoHost();
        }
        return webCrypto;
    }

    /** The deployment's bindings beyond vars and Durable Objects (BindingBridge), for dispatch.js and the binding wrappers. */
    public void bindings(BindingBridge bridge) {
        this.bindings = bridge;
    }

    @HostAccess.Export
    public BindingBridge bindings() {
        return bindings;
    }

    /** The deployment's modules other than ES modules and the WebAssembly runtime (bundle/BundleModules), for modules.js and wasm.js. */
    public void bundleModules(Object modules) {
        this.bundleModules = modules;
    }

    @HostAccess.Export
    public Object bundleModules() {
        return bundleModules;
    }

    /** The JDK behind the node: modules' hashes, key derivation and zlib (nodejs_compat); stateless, one for all. */
    @HostAccess.Export
    public NodeHost node() {
        return NODE;
    }

    private static final NodeHost NODE = new NodeHost();

    /**
     * {@code process.exit()} (node: modules): workerd cancels the running event with this error,
     * even when JavaScript catches the throw that follows. The event fails now; later answers are ignored.
     */
    @HostAccess.Export
    public void cancelEvent(String message) {
        instance.currentEvent().fail(new dev.cellgate.js.graal.instance.JsException("Error", message, "Error: " + message));
    }

    /** The engine's node-local cache store, for {@link #cache()}. */
    public void nodeCache(dev.cellgate.js.graal.host.cache.NodeCache store) {
        this.nodeCache = store;
    }

    /** The Cache API ({@code cache.js}); made on first use. */
    @HostAccess.Export
    public dev.cellgate.js.graal.host.cache.CacheHost cache() {
        if (cacheHost == null) {
            cacheHost = new dev.cellgate.js.graal.host.cache.CacheHost(nodeCache, System::currentTimeMillis);
        }
        return cacheHost;
    }

    /** A new HTMLRewriter transform ({@code html-rewriter.js}). */
    @HostAccess.Export
    public dev.cellgate.js.graal.host.html.HtmlRewriterHost newHtmlRewriter() {
        return new dev.cellgate.js.graal.host.html.HtmlRewriterHost();
    }

    /** Why {@code HTMLRewriter.on(selector)} refuses a selector, or null. */
    @HostAccess.Export
    public String htmlSelectorError(String selector) {
        return dev.cellgate.js.graal.host.html.HtmlRewriterHost.selectorError(selector);
    }

    // ---- lazy runtime files (lazy.js) ----

    /** Evaluates a lazy runtime file into the calling context and returns its {@code (host, internal)} function. */
    @HostAccess.Export
    public Value loadRuntime(String name) {
        return Context.getCurrent().eval(runtime.lazy(name));
    }

    // ---- console ----

    @HostAccess.Export
    public void log(int level, String message) {
        JsEvent ev = instance.currentEvent();
        var builder = switch (level) {
            case 0 -> CONSOLE.atDebug();
            case 2 -> CONSOLE.atWarn();
            case 3 -> CONSOLE.atError();
            default -> CONSOLE.atInfo();
        };
        builder.setMessage("js.console").addKeyValue("request_id", ev.requestId()).addKeyValue("instance", instance.label())
                .addKeyValue("message", message).log();
    }

    // ---- timers ----

    @HostAccess.Export
    public void setTimer(int id, double delayMs) {
        timers.set(id, delayMs);
    }

    @HostAccess.Export
    public void clearTimer(int id) {
        timers.clear(id);
    }

    // ---- crypto ----

    @HostAccess.Export
    public ByteBuffer randomBytes(int n) {
        return HostCrypto.randomBytes(n);
    }

    @HostAccess.Export
    public String randomUUID() {
        return HostCrypto.randomUUID();
    }

    @HostAccess.Export
    public String sha256Hex(String text) {
        return HostCrypto.sha256Hex(text);
    }

    @HostAccess.Export
    public String randomHex32() {
        return HostCrypto.randomHex32();
    }

    // ---- compression streams (compression.js) ----

    @HostAccess.Export
    public Compressor compressor(String format) {
        return new Compressor(format);
    }

    @HostAccess.Export
    public Decompressor decompressor(String format, boolean strict) {
        return new Decompressor(format, strict);
    }

    // ---- storage point-in-time recovery (storage.js) ----

    /** {@code op}: current, forTime (arg: ms), restore (arg: the bookmark); see {@link PitrCalls}. */
    @HostAccess.Export
    public void pitr(String op, String arg, Value callback) {
        pitr.call(op, arg, callback);
    }

    // ---- outbound fetch ----

    @HostAccess.Export
    public int fetch(String method, String url, String headerLines, int bodyKind, Value body, int offset, int length,
                     String redirect, Value callback) {
        JsEvent ev = instance.currentEvent();
        Body b = BodyArgs.fromJs(instance, ev, fns, bodyKind, body, offset, length);
        int id = ++nextFetchId;
        Value done = callback;
        OutboundFetch f = new OutboundFetch(http, instance, ev, done, method, url, HeaderLines.decode(headerLines), b, redirect);
        fetches.put(id, f);
        f.start();
        return id;
    }

    /** The fetch settled in JavaScript: forget it. */
    @HostAccess.Export
    public void fetchDone(int id) {
        fetches.remove(id);
    }

    @HostAccess.Export
    public void abortFetch(int id) {
        OutboundFetch f = fetches.remove(id);
        if (f != null) {
            f.abort();
        }
    }

    // ---- Durable Object stubs ----

    @HostAccess.Export
    public void stubFetch(String className, String hex, String name, String method, String url, String headerLines,
                          int bodyKind, Value body, int offset, int length, Value callback) {
        JsEvent ev = instance.currentEvent();
        Body b = BodyArgs.fromJs(instance, ev, fns, bodyKind, body, offset, length);
        HttpRequestData req = new HttpRequestData(method, url, HeaderLines.decode(headerLines), b, ev.requestId());
        stubs.fetch(new CellIdentity(className, hex, name), req, callback);
    }

    @HostAccess.Export
    public void stubCall(String className, String hex, String name, String method, Value args, int offset, int length,
                         Value callback) {
        stubs.call(new CellIdentity(className, hex, name), method, bytes(args, offset, length), callback);
    }

    static byte[] bytes(Value buffer, int offset, int length) {
        byte[] b = new byte[length];
        if (length > 0) {
            buffer.readBuffer(offset, b, 0, length);
        }
        return b;
    }
}
