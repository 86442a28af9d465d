package dev.cellgate.deploy.operator;

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * {@code cells restore SCOPE --to TIME|BOOKMARK [--dry-run]} and {@code d1 restore DATABASE ...}
 * (SPEC §22): asks the node that owns the cell (or, while none does, the one named by
 * {@code --node}) to restore it: {@code POST /restore/<scope>}, signed with the fleet key. A dry run
 * changes nothing and prints the state the restore would bring back.
 */
public final class RestoreCall {
    private RestoreCall() {
    }

    public static int run(Args args, Command.Tool tool, String scope, String what) {
        String to = args.get("to");
        if (to == null) {
            throw CommandException.usage("restore needs --to TIME|BOOKMARK (TIME: 2026-12-04T18:00:00Z or epoch milliseconds)");
        }
        boolean dry = args.flag("dry-run");
        String query = target(to) + (dry ? "&dry_run=1" : "");
        String path = "/restore/" + scope + "?" + query;
        try (BucketStore store = tool.stores().open(args)) {
            String node = CellOwner.node(store, scope, args.get("node"), what);
            JsonObject answer = new OperatorCall(NodeCommand.fleetKey(store), Duration.ofMillis(NodeCommand.timeoutMs(args.get("timeout-ms"))))
                    .postForJson(node, NodeCommand.address(store, node, args.get("address")), path, new byte[0]);
            tool.out().result(answer.put("node", node), text(answer, what));
            return ExitCodes.OK;
        }
    }

    /** The query naming the target: a bookmark as it is, a time as epoch ms. */
    static String target(String to) {
        try {
            return "bookmark=" + URLEncoder.encode(Bookmark.parse(to).encode(), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notABookmark) {
            // a time, then
        }
        if (to.matches("[0-9]{1,15}")) {
            return "time=" + to;
        }
        try {
            return "time=" + Instant.parse(to).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw CommandException.usage("--to " + to + ": not a bookmark (as storage.getCurrentBookmark() returns), an ISO-8601"
                    + " instant (2026-12-04T18:00:00Z) or epoch milliseconds");
        }
    }

    private static String text(JsonObject a, String what) {
        String state = "bookmark " + a.getString("bookmark") + " (state of " + Instant.ofEpochMilli(a.getLong("time_ms"))
                + ", epoch " + a.getLong("epoch") + " txid " + a.getLong("txid") + ")";
        if (!a.getBoolean("dry_run", false)) {
            return "restored " + what + " to " + state + "\nundo with: --to " + a.getString("undo");
        }
        StringBuilder b = new StringBuilder("dry run: would restore " + what + " to " + state + ", which holds:");
        JsonObject tables = a.getJsonObject("tables", new JsonObject());
        tables.fieldNames().stream().sorted().forEach(t -> b.append("\n  table ").append(t).append(": ").append(tables.getLong(t)).append(" row(s)"));
        return b.append("\n  ").append(a.getLong("kv_keys", 0L)).append(" KV key(s), ").append(a.getLong("database_bytes", 0L))
                .append(" bytes").toString();
    }
}
