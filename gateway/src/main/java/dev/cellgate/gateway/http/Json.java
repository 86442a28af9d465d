package dev.cellgate.gateway.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/** Small helpers to answer with JSON. */
public final class Json {
    private Json() {
    }

    public static void send(HttpServerResponse resp, int status, JsonObject body) {
        resp.setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
    }

    public static JsonObject error(String message) {
        return new JsonObject().put("error", message);
    }
}
