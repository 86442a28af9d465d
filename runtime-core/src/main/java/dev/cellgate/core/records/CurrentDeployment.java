package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/** {@code deploy/current.json}: the deployment every node runs, and the one before it. */
public record CurrentDeployment(String deployment, String previous, long ms) {
    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("deployment", deployment).put("previous", previous).put("ms", ms));
    }

    public static CurrentDeployment decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "deploy/current.json");
        return new CurrentDeployment(f.text("deployment"), f.textOrNull("previous"), f.integer("ms"));
    }
}
