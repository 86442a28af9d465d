package dev.cellgate.gateway.it;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Pure checks over what nodes logged (no I/O), so that each can be shown to fail on bad input. */
final class FleetChecks {
    private FleetChecks() {
    }

    /**
     * (scope, epoch) pairs that more than one process activated, from {@code cell.activated} lines
     * labelled by process. One process activating a pair twice is also reported: every activation
     * must bump the epoch.
     */
    static List<String> doubleActivations(List<Map.Entry<String, JsonObject>> activatedLines) {
        Map<String, List<String>> by = new TreeMap<>();
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, JsonObject> e : activatedLines) {
            JsonObject j = e.getValue();
            Long epoch = j.getLong("epoch");
            String scope = j.getString("scope");
            if (scope == null || epoch == null) {
                out.add("cell.activated line without scope or epoch (cannot be checked): " + e.getKey() + ": " + j.encode());
                continue;
            }
            by.computeIfAbsent(scope + "@" + epoch, k -> new ArrayList<>()).add(e.getKey());
        }
        by.forEach((k, v) -> {
            if (v.size() > 1) {
                out.add(k + " activated by " + v);
            }
        });
        return out;
    }
}
