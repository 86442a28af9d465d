package dev.cellgate.gateway.faults;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every {@code cells/<scope>/own.json} write the bucket APPLIED, as seen by the proxies in front
 * of it (shared by all of a fleet's proxies). Unlike the nodes' logs, this includes writes whose
 * answer was dropped: a node that won ownership without knowing it still counts. Two different
 * (node, session) owners written at one (scope, epoch) is a double owner.
 */
public final class OwnershipWitness {
    /** One applied ownership write; {@code answered} is false when the proxy withheld the answer. */
    public record Applied(String scope, long epoch, String node, String session, String via, boolean answered) {
    }

    private final List<Applied> applied = new CopyOnWriteArrayList<>();
    private final List<String> unreadable = new CopyOnWriteArrayList<>();

    void observe(S3Call call, HttpWire.Head request, byte[] rawBody, int status, String via, boolean answered) {
        if (!call.method().equals("PUT") || status / 100 != 2 || !call.isCellRecord("/own.json")) {
            return;
        }
        String key = call.key();
        int cells = key.startsWith("cells/") ? 0 : key.indexOf("/cells/") + 1;
        String scope = key.substring(cells + "cells/".length(), key.length() - "/own.json".length());
        try {
            byte[] body = request.chunked() ? HttpWire.dechunk(rawBody) : rawBody;
            JsonObject j = new JsonObject(new String(body, StandardCharsets.UTF_8));
            applied.add(new Applied(scope, j.getLong("epoch"), j.getString("node"), j.getString("session"), via, answered));
        } catch (Exception e) {
            unreadable.add(call + ": " + e);
        }
    }

    public List<Applied> applied() {
        return List.copyOf(applied);
    }

    /** Applied ownership writes whose answer the node never got. */
    public long appliedUnanswered() {
        return applied.stream().filter(a -> !a.answered()).count();
    }

    /** Acquisitions (non-released records) per (scope, epoch) with more than one owner, described. */
    public List<String> doubleOwners() {
        Map<String, Set<String>> owners = new TreeMap<>();
        for (Applied a : applied) {
            if (!a.node().isEmpty()) {
                owners.computeIfAbsent(a.scope() + "@" + a.epoch(), k -> new HashSet<>()).add(a.node() + "/" + a.session());
            }
        }
        List<String> out = new ArrayList<>();
        owners.forEach((k, v) -> {
            if (v.size() > 1) {
                out.add(k + " owned by " + v);
            }
        });
        unreadable.forEach(u -> out.add("unreadable ownership write (cannot be checked): " + u));
        return out;
    }

    /** Distinct (scope, epoch) acquisitions the bucket applied. */
    public long acquisitions() {
        return applied.stream().filter(a -> !a.node().isEmpty()).map(a -> a.scope() + "@" + a.epoch()).distinct().count();
    }
}
