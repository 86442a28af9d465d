package dev.cellgate.gateway.node;

import dev.cellgate.core.logic.DrainCondition;
import dev.cellgate.core.store.probe.StorageProbe;
import dev.cellgate.gateway.http.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** The operator routes of the internal listener; {@link OperatorAuth} guards every mutating one. */
final class OperatorApi {
    private final Node node;

    OperatorApi(Node node) {
        this.node = node;
    }

    void mount(Router r) {
        r.get("/state").handler(ctx -> Json.send(ctx.response(), 200, node.state()));
        r.get("/metrics").handler(ctx -> node.vertx().executeBlocking(node::metricsText, false)
                .onSuccess(text -> ctx.response().putHeader("content-type", dev.cellgate.gateway.metrics.NodeMetrics.CONTENT_TYPE)
                        .end(text))
                .onFailure(e -> Json.send(ctx.response(), 500, Json.error("metrics: " + e))));
        r.get("/plugins").handler(ctx -> Json.send(ctx.response(), 200, node.pluginsState()));
        r.post("/shutdown").handler(ctx -> {
            String handoff = ctx.request().getParam("handoff");
            DrainCondition.Mode mode;
            if (handoff == null || handoff.equals("handoff")) {
                mode = DrainCondition.Mode.HANDOFF;
            } else if (handoff.equals("preserve")) {
                mode = DrainCondition.Mode.PRESERVE;
            } else {
                Json.send(ctx.response(), 400, Json.error("handoff must be 'preserve' (or absent for a handoff), got '" + handoff + "'"));
                return;
            }
            Json.send(ctx.response(), 202, new io.vertx.core.json.JsonObject().put("shutdown", mode.name().toLowerCase(java.util.Locale.ROOT)));
            node.requestShutdown("POST /shutdown", mode);
        });
        r.post("/probe").handler(this::probe);
    }

    /**
     * {@code POST /probe?bucket=URL}: the storage probe on any bucket the node's plugins can open,
     * except a {@code file://} one: a request must not make the node write into a directory of its
     * choosing (SPEC §19). A directory bucket is checked by {@code deploy-tool diagnose} on its host.
     */
    private void probe(RoutingContext ctx) {
        String url = ctx.request().getParam("bucket");
        if (url == null || url.isBlank()) {
            Json.send(ctx.response(), 400, Json.error("POST /probe needs ?bucket=URL"));
            return;
        }
        if (url.strip().regionMatches(true, 0, "file:", 0, 5)) {
            Json.send(ctx.response(), 400, Json.error("POST /probe does not take file:// buckets (a request must not make the node"
                    + " write into a directory it names); run deploy-tool diagnose --bucket " + url + " on that host instead")
                    .put("bucket", url));
            return;
        }
        node.vertx().executeBlocking(() -> StorageProbe.openAndRun(node.stores(), url, node.storeOptions(), node.nodeId()), false)
                .onSuccess(res -> Json.send(ctx.response(), res.ok() ? 200 : 422, new JsonObject(res.toMap())))
                .onFailure(e -> Json.send(ctx.response(), e instanceof IllegalArgumentException ? 400 : 500,
                        Json.error(String.valueOf(e.getMessage())).put("bucket", url)));
    }
}
