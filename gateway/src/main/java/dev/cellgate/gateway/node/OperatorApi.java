package dev.cellgate.gateway.node;

import dev.cellgate.gateway.http.Json;
import io.vertx.ext.web.Router;

/** The operator routes of the internal listener. */
final class OperatorApi {
    private final Node node;

    OperatorApi(Node node) {
        this.node = node;
    }

    void mount(Router r) {
        r.get("/state").handler(ctx -> Json.send(ctx.response(), 200, node.state()));
        r.get("/plugins").handler(ctx -> Json.send(ctx.response(), 200, node.pluginsState()));
    }
}
