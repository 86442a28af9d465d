package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.js.graal.host.rpc.RpcBridge;
import dev.cellgate.js.graal.instance.FetchEvent;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * {@code host.services()}: service bindings to this Worker itself ({@code service-bindings.js}). A
 * fleet runs one Worker, so a call is served where it is made: as a NEW event of this very
 * instance (a new request context with its own {@code ctx}, as workerd runs a loopback call in the
 * same isolate), queued on the instance's executor behind the calling turn, and answered in a turn
 * of the calling event — the same answer paths as a Durable Object stub's ({@link StubCalls}).
 *
 * <p>The new event passes the input gate ({@link JsEvent#passGate}): called from a Durable Object,
 * it is a request of the Worker, not an event of that object. The request body and the response
 * body stream between the two events as they would between a Worker and a cell.
 */
public final class ServiceCalls {
    /**
     * Test-only negative controls, never set in production. {@code brokenGatedForTests}: the call
     * waits at the input gate like an event of the Durable Object that made it (a call made inside
     * {@code blockConcurrencyWhile} then never runs). {@code brokenUnlentForTests}: what the
     * entrypoint exports belongs to its own call, so a returned RpcTarget dies when the call returns.
     * {@code ServiceBindingLifetimeTest} must see each broken.
     */
    public static volatile boolean brokenGatedForTests;
    public static volatile boolean brokenUnlentForTests;

    private final JsInstance instance;
    private final StubCalls answers;
    private final Supplier<JsFunctions> functions;
    private final Supplier<RpcBridge> rpc;

    ServiceCalls(JsInstance instance, StubCalls answers, Supplier<JsFunctions> functions, Supplier<RpcBridge> rpc) {
        this.instance = instance;
        this.answers = answers;
        this.functions = functions;
        this.rpc = rpc;
    }

    /**
     * {@code env.X.fetch(request)}: {@code entrypoint} null for the default export, {@code propsJson}
     * the callee's ctx.props (null: none). Answers {@code callback} as {@link StubCalls#fetch} does.
     */
    @HostAccess.Export
    public void fetch(String entrypoint, String propsJson, String method, String url, String headerLines, int bodyKind, Value body,
                      int offset, int length, Value callback) {
        JsEvent caller = instance.currentEvent();
        Body b = BodyArgs.fromJs(instance, caller, functions.get(), bodyKind, body, offset, length);
        FetchEvent event = new FetchEvent(instance, functions, caller.requestId(), "service fetch " + method + " " + url);
        if (!brokenGatedForTests) {
            event.passGate();
        }
        start(event, () -> functions.get().dispatchServiceFetch().executeVoid(event, entrypoint, propsJson, method, url, headerLines,
                BodyArgs.kindOf(b), BodyArgs.valueOf(instance, event, b)));
        answers.answerFetch(caller, event.future(), callback);
    }

    /**
     * {@code env.X.m(...)} (or a property read, or a longer path): {@code op} "call" or "get" along
     * {@code pathJson}, the arguments as an RPC message. Answers {@code callback} as {@link StubCalls#call}.
     */
    @HostAccess.Export
    public void call(String entrypoint, String propsJson, String op, String pathJson, Value args, int offset, int length,
                     Value callback) {
        JsEvent caller = instance.currentEvent();
        byte[] bytes = HostBridge.bytes(args, offset, length);
        ResultEvent event = new ResultEvent(instance, caller.requestId(), "service rpc " + op + " " + pathJson);
        if (!brokenGatedForTests) {
            event.passGate();
        }
        if (!brokenUnlentForTests) {
            rpc.get().lend(event, caller);
        }
        start(event, () -> functions.get().dispatchServiceCall().executeVoid(event, entrypoint, propsJson, op, pathJson,
                ByteBuffer.wrap(bytes)));
        answers.answerCall(caller, event.future(), callback);
    }

    /** Delivers {@code event} in a task of its own (never inside the calling turn); a closed executor fails it. */
    private void start(JsEvent event, Runnable body) {
        try {
            instance.host().executor().execute(() -> instance.deliver(event, body));
        } catch (RejectedExecutionException e) {
            event.fail(new JsException("Error", "The Worker could not take the service binding's call: its instance is closing.", ""));
        }
    }
}
