package dev.cellgate.gateway.node;

import dev.cellgate.core.bindings.D1Cells;
import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.gateway.http.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * {@code POST /d1/<scope>}: runs a D1 database's queries for the operator ({@code deploy-tool d1
 * execute}) in the database's cell on THIS node, which must own it or be free to take it (the
 * caller picks the owner from the bucket). The body, {@code {queries: [{sql, params}]}}, goes to
 * the cell's own fetch handler (js-graal {@code bindings/d1.js}) as one transaction; the answer is
 * its JSON. OperatorAuth has checked the signature before this route runs.
 */
final class D1Routes {
    private final Cells cells;

    D1Routes(Cells cells) {
        this.cells = cells;
    }

    void mount(Router r) {
        r.post("/d1/:scope").handler(this::query);
    }

    private void query(RoutingContext ctx) {
        String scope = ctx.pathParam("scope");
        if (!Scopes.isValid(scope) || !Scopes.className(scope).equals(D1Cells.CLASS_NAME)) {
            Json.send(ctx.response(), 400, Json.error("a D1 database's scope is " + D1Cells.CLASS_NAME + ":<64 lowercase hex>, got '"
                    + scope + "'"));
            return;
        }
        byte[] signed = ctx.get(OperatorAuth.BODY);
        if (signed != null) {
            run(ctx, scope, signed);
            return;
        }
        ctx.request().body().onComplete(ar -> {  // a bearer-token call: OperatorAuth did not read it
            if (ar.failed()) {
                Json.send(ctx.response(), 400, Json.error("could not read the body: " + ar.cause().getMessage()));
                return;
            }
            run(ctx, scope, ar.result().getBytes());
        });
    }

    private void run(RoutingContext ctx, String scope, byte[] body) {
        Context vctx = Vertx.currentContext();
        HttpRequestData req = new HttpRequestData("POST", "http://d1.operator/query",
                List.of(Map.entry("content-type", "application/json")), Body.of(body), "d1-" + UUID.randomUUID());
        cells.fetch(new CellIdentity(D1Cells.CLASS_NAME, Scopes.hexId(scope), null), req)
                .thenCompose(D1Routes::bytes)
                .whenComplete((answer, e) -> vctx.runOnContext(v -> {
                    if (e != null) {
                        Throwable c = e.getCause() != null ? e.getCause() : e;
                        Json.send(ctx.response(), 409, Json.error("this node cannot run the database's cell (" + c.getMessage()
                                + "): call the node that owns " + scope));
                        return;
                    }
                    ctx.response().setStatusCode(answer.status()).putHeader("content-type", "application/json")
                            .end(io.vertx.core.buffer.Buffer.buffer(answer.body()));
                }));
    }

    private record Answer(int status, byte[] body) {
    }

    private static CompletableFuture<Answer> bytes(HttpResponseData r) {
        return switch (r.body()) {
            case Body.Empty e -> CompletableFuture.completedFuture(new Answer(r.status(), new byte[0]));
            case Body.Bytes b -> CompletableFuture.completedFuture(new Answer(r.status(), b.data()));
            case Body.Stream s -> {
                CompletableFuture<Answer> out = new CompletableFuture<>();
                s.publisher().subscribe(new Flow.Subscriber<>() {
                    private final ByteArrayOutputStream all = new ByteArrayOutputStream();

                    @Override
                    public void onSubscribe(Flow.Subscription sub) {
                        sub.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        byte[] chunk = new byte[item.remaining()];
                        item.get(chunk);
                        all.writeBytes(chunk);
                    }

                    @Override
                    public void onError(Throwable t) {
                        out.completeExceptionally(t);
                    }

                    @Override
                    public void onComplete() {
                        out.complete(new Answer(r.status(), all.toByteArray()));
                    }
                });
                yield out;
            }
        };
    }
}
