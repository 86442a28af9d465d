package dev.cellgate.gateway.node;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.observe.ResidentCell;
import dev.cellgate.gateway.http.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Operator routes for one cell (SPEC §6): {@code GET /cell/<scope>} shows where it lives (this
 * node's view and the bucket's ownership record), {@code POST /evict/<scope>} releases it from
 * this node (final flush, ownership given back) so the next request anywhere activates it afresh.
 */
final class CellRoutes {
    private final Cells cells;
    private final OwnershipStore ownership;

    CellRoutes(Cells cells, OwnershipStore ownership) {
        this.cells = cells;
        this.ownership = ownership;
    }

    void mount(Router r) {
        r.get("/cell/:scope").handler(this::show);
        r.post("/evict/:scope").handler(this::evict);
        new D1Routes(cells).mount(r); // a D1 database is a cell too: the operator's queries to it (docs/d1.md)
    }

    private static String scope(RoutingContext ctx) {
        String s = ctx.pathParam("scope");
        if (!Scopes.isValid(s)) {
            Json.send(ctx.response(), 400, Json.error("a scope is <ClassName>:<64 lowercase hex>, got '" + s + "'"));
            return null;
        }
        return s;
    }

    private void show(RoutingContext ctx) {
        String scope = scope(ctx);
        if (scope == null) {
            return;
        }
        JsonObject out = new JsonObject().put("scope", scope);
        ResidentCell here = cells.residentInfo().stream().filter(c -> c.scope().equals(scope)).findFirst().orElse(null);
        out.put("resident_here", here != null);
        if (here != null) {
            out.put("epoch", here.epoch()).put("last_used_ms", here.lastUsedMs()).put("deployment", here.deployment()).put("name", here.name());
        }
        Context vctx = Vertx.currentContext();
        ownership.readOwnership(scope).whenComplete((own, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                Json.send(ctx.response(), 502, out.put("error", "cannot read the ownership record: " + e.getMessage()));
                return;
            }
            if (own.malformed() != null) {
                out.put("ownership", new JsonObject().put("malformed", own.malformed()));
            } else if (own.record() == null) {
                out.put("ownership", (Object) null);
            } else {
                var rec = own.record().value();
                out.put("ownership", new JsonObject().put("node", rec.node()).put("session", rec.session()).put("epoch", rec.epoch())
                        .put("released", rec.isReleased()));
            }
            Json.send(ctx.response(), 200, out);
        }));
    }

    private void evict(RoutingContext ctx) {
        String scope = scope(ctx);
        if (scope == null) {
            return;
        }
        if (cells.residentScopes().stream().noneMatch(scope::equals)) {
            Json.send(ctx.response(), 404, Json.error("cell " + scope + " is not resident on this node"));
            return;
        }
        Context vctx = Vertx.currentContext();
        cells.release(scope, "operator eviction").whenComplete((ok, e) -> vctx.runOnContext(v -> Json.send(ctx.response(),
                e == null && ok ? 200 : 409, new JsonObject().put("scope", scope).put("released", e == null && ok)
                        .put("error", e == null ? null : e.getMessage()))));
    }
}
