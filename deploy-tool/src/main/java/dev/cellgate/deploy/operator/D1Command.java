package dev.cellgate.deploy.operator;

import dev.cellgate.core.bindings.D1Cells;
import dev.cellgate.core.cell.storage.SqlText;
import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.diagnose.AdvertiseAddress;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code deploy-tool d1 execute DATABASE --command SQL | --file FILE}: runs SQL on a D1 database of
 * the fleet, as {@code wrangler d1 execute --remote} does on Cloudflare. The database is a cell
 * (docs/d1.md), so the SQL runs where the cell is: the command finds its owner in the bucket (or
 * the node named by {@code --node} while no node holds it) and POSTs the statements, signed with the
 * fleet key, to that node's {@code /d1/<scope>}, which runs them in one transaction.
 */
public final class D1Command implements Command {
    @Override
    public String name() {
        return "d1";
    }

    @Override
    public Set<String> valued() {
        return Set.of("command", "file", "config", "env", "node", "address", "timeout-ms");
    }

    @Override
    public String usage() {
        return """
                  d1 execute DATABASE (--command SQL | --file FILE) [--config wrangler.jsonc] [--env NAME]
                      [--node NODE] [--address HOST:PORT] [--timeout-ms N]
                      Run SQL on a D1 database (a binding or database_name of the Wrangler config, by
                      default the one in the current directory), all statements in one transaction,
                      on the node that owns the database's cell (--node while none does). Prints each
                      statement's {results, success, meta}.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() != 2 || !p.get(0).equals("execute")) {
            throw CommandException.usage("d1 needs: execute DATABASE (--command SQL | --file FILE)");
        }
        String sql = sql(args);
        D1DatabaseBinding db = database(args, p.get(1));
        String scope = D1Cells.scopeOf(db.databaseId(), db.databaseName());
        JsonArray queries = new JsonArray();
        try {
            for (SqlText.Statement st : SqlText.parse(sql)) {
                queries.add(new JsonObject().put("sql", st.text()));
            }
        } catch (IllegalArgumentException e) {
            throw CommandException.refused("the SQL cannot run on D1: " + e.getMessage());
        }
        Duration timeout = Duration.ofMillis(NodeCommand.timeoutMs(args.get("timeout-ms")));
        try (BucketStore store = tool.stores().open(args)) {
            String node = node(store, scope, args.get("node"));
            AdvertiseAddress address = NodeCommand.address(store, node, args.get("address"));
            String path = "/d1/" + scope;
            OperatorCall.Answer a;
            try {
                a = new OperatorCall(NodeCommand.fleetKey(store), timeout).post(node, address, path,
                        new JsonObject().put("queries", queries).encode().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw CommandException.failed("node " + node + " at " + address.authority() + " did not answer POST " + path + ": " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CommandException.failed("interrupted", e);
            }
            JsonObject answer;
            try {
                answer = new JsonObject(a.body());
            } catch (RuntimeException e) {
                throw CommandException.failed("node " + node + " answered POST " + path + " with " + a.status() + ": " + a.body(), e);
            }
            if (a.status() != 200) {
                throw CommandException.failed("node " + node + " answered POST " + path + " with " + a.status() + ": "
                        + answer.getValue("error", a.body()), null);
            }
            if (answer.containsKey("error")) {
                throw CommandException.failed("D1_ERROR: " + answer.getString("error") + " (nothing was applied)", null);
            }
            JsonArray results = answer.getJsonArray("results");
            tool.out().result(new JsonObject().put("database", db.databaseName() == null ? db.databaseId() : db.databaseName())
                    .put("node", node).put("results", results), text(results));
            return ExitCodes.OK;
        }
    }

    private static String sql(Args args) {
        String command = args.get("command");
        String file = args.get("file");
        if ((command == null) == (file == null)) {
            throw CommandException.usage("d1 execute needs exactly one of --command SQL and --file FILE");
        }
        if (command != null) {
            return command;
        }
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            throw CommandException.refused("cannot read --file " + file + ": " + e.getMessage());
        }
    }

    /** The binding or database_name {@code name} of the Wrangler config. */
    private static D1DatabaseBinding database(Args args, String name) {
        Path config = args.get("config") != null ? Path.of(args.get("config")) : configIn(Path.of(""));
        if (config == null || !Files.isRegularFile(config)) {
            throw CommandException.refused("no Wrangler config (" + (config == null ? "none in the current directory" : config)
                    + "): name it with --config");
        }
        WranglerConfig c = WranglerConfig.read(config, args.get("env"));
        List<D1DatabaseBinding> all = c.bindings().stream().filter(D1DatabaseBinding.class::isInstance).map(D1DatabaseBinding.class::cast)
                .toList();
        return all.stream().filter(b -> b.name().equals(name)).findFirst()
                .or(() -> all.stream().filter(b -> name.equals(b.databaseName())).findFirst())
                .orElseThrow(() -> CommandException.refused("no D1 database " + name + " in " + config + " (d1_databases: "
                        + all.stream().map(D1DatabaseBinding::name).toList() + ")"));
    }

    private static Path configIn(Path dir) {
        for (String n : new String[] {"wrangler.json", "wrangler.jsonc", "wrangler.toml"}) {
            if (Files.isRegularFile(dir.resolve(n))) {
                return dir.resolve(n);
            }
        }
        return null;
    }

    /** The cell's owner from its ownership record; while none holds it, the node named by --node. */
    private static String node(BucketStore store, String scope, String named) {
        Optional<StoredObject> own = NodeCommand.read(store, Keys.ownership(scope));
        if (own.isPresent()) {
            try {
                OwnershipRecord r = OwnershipRecord.decode(own.get().bytes());
                if (!r.isReleased()) {
                    if (named != null && !named.equals(r.node())) {
                        throw CommandException.refused("the database's cell is owned by node " + r.node() + ", not " + named
                                + ": its SQL runs there (leave --node out)");
                    }
                    return r.node();
                }
            } catch (MalformedRecordException e) {
                throw CommandException.failed("the ownership record of " + scope + " is malformed: " + e.getMessage(), e);
            }
        }
        if (named == null) {
            throw CommandException.refused("no node holds the database's cell " + scope + " now: name one with --node NODE");
        }
        return named;
    }

    private static String text(JsonArray results) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            JsonObject r = results.getJsonObject(i);
            JsonObject meta = r.getJsonObject("meta");
            out.append("statement ").append(i + 1).append(": ").append(meta.getLong("changes")).append(" changed, ")
                    .append(r.getJsonArray("results").size()).append(" row(s)");
            r.getJsonArray("results").forEach(row -> out.append("\n  ").append(((JsonObject) row).encode()));
            if (i < results.size() - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }
}
