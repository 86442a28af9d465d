package dev.cellgate.deploy.diagnose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Locale;

/** Renders a {@link Diagnosis} report for people: one line per lease, peer and check, problems underneath. */
public final class DiagnoseReport {
    private DiagnoseReport() {
    }

    public static String text(JsonObject r) {
        StringBuilder b = new StringBuilder();
        b.append("fleet in ").append(r.getString("bucket")).append(" at ").append(Instant.ofEpochMilli(r.getLong("now_ms"))).append('\n');
        JsonArray leases = r.getJsonArray("leases");
        b.append("\nnode leases (").append(leases.size()).append(")\n");
        if (leases.isEmpty()) {
            b.append("  none: no node is running (or none has started against this bucket)\n");
        }
        for (Object o : leases) {
            JsonObject l = (JsonObject) o;
            String detail = switch (l.getString("status")) {
                case "live" -> "live, expires in " + secs(l.getLong("expires_in_ms")) + ", advertise " + l.getString("advertise")
                        + ", protocol " + l.getInteger("protocol") + ", " + load(l.getJsonObject("load"));
                case "expired" -> "expired, advertise " + l.getString("advertise");
                case "tombstone" -> "tombstone (dead-node GC is retiring it)";
                case "vanished" -> "deleted while being read (a node stopped)";
                default -> l.getString("status");
            };
            line(b, l, (l.getString("node") == null ? l.getString("key") : l.getString("node")) + "  " + detail);
        }
        JsonArray peers = r.getJsonArray("peers");
        b.append("\npeer probes (").append(peers.size()).append(")\n");
        if (peers.isEmpty()) {
            b.append("  none: no live node to probe\n");
        }
        for (Object o : peers) {
            JsonObject p = (JsonObject) o;
            String detail = p.getBoolean("auth_ok", false)
                    ? "reachable at " + p.getString("advertise") + ", protocol " + p.getValue("protocol") + ", auth ok, "
                    + p.getLong("latency_ms") + " ms" + (Boolean.TRUE.equals(p.getValue("draining")) ? ", DRAINING" : "")
                    + (p.getJsonObject("load") == null ? "" : ", " + load(p.getJsonObject("load")))
                    : Boolean.TRUE.equals(p.getValue("reachable")) ? "reachable at " + p.getString("advertise") + ", HTTP " + p.getValue("status")
                    : "not reached" + (p.getString("advertise") == null ? "" : " at " + p.getString("advertise"));
            line(b, p, p.getString("node") + "  " + detail);
        }
        JsonObject d = r.getJsonObject("deployment");
        b.append("\ndeployment\n");
        line(b, d, d.getString("current") == null ? (d.getBoolean("ok") ? "nothing deployed yet" : "deploy/current.json unusable")
                : "current " + d.getString("current") + " (" + d.getString("name", "?") + ")"
                + (d.getString("previous") == null ? "" : ", previous " + d.getString("previous")));
        JsonObject s = r.getJsonObject("storage");
        b.append("\nstorage probe\n");
        line(b, s, s.getString("summary"));
        if (s.getJsonArray("steps") != null) {
            for (Object o : s.getJsonArray("steps")) {
                JsonObject st = (JsonObject) o;
                b.append("        ").append(st.getBoolean("ok") ? "ok    " : "FAILED").append(' ').append(st.getString("step"))
                        .append(": ").append(st.getString("detail")).append(" (").append(st.getLong("ms")).append(" ms)\n");
            }
        }
        JsonArray problems = r.getJsonArray("problems");
        b.append('\n').append(problems.isEmpty() ? "no problems found" : problems.size() + " problem(s) found").append('\n');
        return b.toString();
    }

    private static void line(StringBuilder b, JsonObject item, String text) {
        boolean ok = item.getBoolean("ok", false);
        b.append("  ").append(ok ? "OK     " : "PROBLEM").append(' ').append(text).append('\n');
        JsonArray problems = item.getJsonArray("problems");
        if (problems != null) {
            for (Object p : problems) {
                b.append("          - ").append(p).append('\n');
            }
        }
    }

    private static String load(JsonObject l) {
        if (l == null) {
            return "load unknown";
        }
        int max = l.getInteger("max_resident", -1);
        return "resident " + l.getInteger("resident") + "/" + (max < 0 ? "unlimited" : max)
                + (l.getBoolean("pressured", false) ? ", PRESSURED" : "") + ", restoring " + l.getInteger("restoring");
    }

    private static String secs(Long ms) {
        return ms == null ? "?" : String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
