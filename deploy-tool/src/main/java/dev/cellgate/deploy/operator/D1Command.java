package dev.cellgate.deploy.operator;

import dev.cellgate.core.bindings.D1Cells;
import dev.cellgate.core.cell.storage.SqlText;
import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.core.spi.bucket.BucketStore;
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
import java.util.Set;

/**
 * {@code deploy-tool d1 execute DATABASE --command SQL | --file FILE} and {@code d1 migrations
 * list|apply DATABASE}: SQL on a D1 database of the fleet, as {@code wrangler d1 execute --remote} and
 * {@code wrangler d1 migrations} do on Cloudflare. The database is a cell
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
        return Set.of("command", "file", "config", "env", "node", "address", "timeout-ms", "to");
    }

    @Override
    public Set<String> flags() {
        return Set.of("dry-run");
    }

    @Override
    public String usage() {
        return """
                  d1 execute DATABASE (--command SQL | --file FILE) | d1 migrations list|apply DATABASE
                  | d1 restore DATABASE --to TIME|BOOKMARK [--dry-run]
                      [--config wrangler.jsonc] [--env NAME] [--node NODE] [--address HOST:PORT] [--timeout-ms N]
                      Run SQL on a D1 database (a binding or database_name of the Wrangler config, by
                      default the one in the current directory), all statements in one transaction,
                      on the node that owns the database's cell (--node while none does); or list and
                      apply Wrangler's migrations (migrations_dir, default migrations/; applied ones
                      recorded in migrations_table, default d1_migrations), each in one transaction; or
                      restore the database to a time (ISO-8601 or epoch ms) or a bookmark, within
                      CELLD_PITR_DAYS (--dry-run: print the state it would restore, change nothing).
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() == 2 && p.get(0).equals("execute")) {
            return execute(args, tool, p.get(1));
        }
        if (p.size() == 2 && p.get(0).equals("restore")) {
            Database db = database(args, p.get(1));
            return RestoreCall.run(args, tool, db.scope(), "D1 database " + db.label());
        }
        if (p.size() == 3 && p.get(0).equals("migrations") && (p.get(1).equals("list") || p.get(1).equals("apply"))) {
            return migrations(args, tool, p.get(1).equals("apply"), p.get(2));
        }
        throw CommandException.usage("d1 needs: execute DATABASE (--command SQL | --file FILE), migrations list|apply DATABASE,"
                + " or restore DATABASE --to TIME|BOOKMARK [--dry-run]");
    }

    private int execute(Args args, Tool tool, String name) {
        String sql = sql(args);
        Database db = database(args, name);
        JsonArray queries = statements(sql, "the SQL");
        try (BucketStore store = tool.stores().open(args)) {
            Target t = target(args, store, db.scope());
            JsonArray results = t.run(queries);
            tool.out().result(new JsonObject().put("database", db.label()).put("node", t.node()).put("results", results), text(results));
            return ExitCodes.OK;
        }
    }

    /** Wrangler's migrations: every {@code *.sql} of the directory by name, each applied once, in its own transaction with its record. */
    private int migrations(Args args, Tool tool, boolean apply, String name) {
        Database db = database(args, name);
        if (!db.table().matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw CommandException.refused("migrations_table must be a plain SQL name, got '" + db.table() + "'");
        }
        List<Path> files;
        try (java.util.stream.Stream<Path> list = Files.isDirectory(db.dir()) ? Files.list(db.dir()) : java.util.stream.Stream.empty()) {
            files = list.filter(f -> f.getFileName().toString().endsWith(".sql")).sorted().toList();
        } catch (IOException e) {
            throw CommandException.refused("cannot list " + db.dir() + ": " + e.getMessage());
        }
        try (BucketStore store = tool.stores().open(args)) {
            Target t = target(args, store, db.scope());
            t.run(new JsonArray().add(new JsonObject().put("sql", "CREATE TABLE IF NOT EXISTS " + db.table()
                    + " (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)")));
            JsonArray rows = t.run(new JsonArray().add(new JsonObject().put("sql", "SELECT name FROM " + db.table() + " ORDER BY id")))
                    .getJsonObject(0).getJsonArray("results");
            java.util.Set<String> applied = new java.util.LinkedHashSet<>();
            rows.forEach(r -> applied.add(((JsonObject) r).getString("name")));
            List<String> pending = files.stream().map(f -> f.getFileName().toString()).filter(n -> !applied.contains(n)).toList();
            JsonArray done = new JsonArray();
            if (apply) {
                for (String m : pending) {
                    String text;
                    try {
                        text = Files.readString(db.dir().resolve(m));
                    } catch (IOException e) {
                        throw CommandException.refused("cannot read migration " + m + ": " + e.getMessage());
                    }
                    JsonArray queries = statements(text, "migration " + m);
                    queries.add(new JsonObject().put("sql", "INSERT INTO " + db.table() + " (name) VALUES (?)").put("params", new JsonArray().add(m)));
                    try {
                        t.run(queries);
                    } catch (CommandException e) {
                        throw new CommandException(e.exitCode(), "migration " + m + " failed, nothing of it was applied"
                                + (done.isEmpty() ? "" : " (applied before it: " + done.encode() + ")") + ": " + e.getMessage());
                    }
                    done.add(m);
                }
            }
            JsonObject out = new JsonObject().put("database", db.label()).put("node", t.node())
                    .put("applied_before", new JsonArray(List.copyOf(applied)));
            if (apply) {
                out.put("applied", done);
            } else {
                out.put("unapplied", new JsonArray(pending));
            }
            String text = apply ? (done.isEmpty() ? "no migrations to apply" : "applied " + String.join(", ", done.stream().map(String::valueOf).toList()))
                    : (pending.isEmpty() ? "no migrations to apply" : "unapplied: " + String.join(", ", pending));
            tool.out().result(out, text);
            return ExitCodes.OK;
        }
    }

    private static JsonArray statements(String sql, String what) {
        JsonArray queries = new JsonArray();
        try {
            for (SqlText.Statement st : SqlText.parse(sql)) {
                queries.add(new JsonObject().put("sql", st.text()));
            }
        } catch (IllegalArgumentException e) {
            throw CommandException.refused(what + " cannot run on D1: " + e.getMessage());
        }
        return queries;
    }

    /** A database of the config: its cell, and where its migrations are. */
    private record Database(D1DatabaseBinding binding, Path dir, String table) {
        String scope() {
            return D1Cells.scopeOf(binding.databaseId(), binding.databaseName());
        }

        String label() {
            return binding.databaseName() == null ? binding.databaseId() : binding.databaseName();
        }
    }

    /** The node that runs the database's cell, and one call to it. */
    private record Target(String node, AdvertiseAddress address, OperatorSignature key, Duration timeout, String scope) {
        /** The statements' results, in one transaction; a failing one applies nothing and throws. */
        JsonArray run(JsonArray queries) {
            JsonObject answer = new OperatorCall(key, timeout).postForJson(node, address, "/d1/" + scope,
                    new JsonObject().put("queries", queries).encode().getBytes(StandardCharsets.UTF_8));
            if (answer.containsKey("error")) {
                throw CommandException.failed("D1_ERROR: " + answer.getString("error") + " (nothing was applied)", null);
            }
            return answer.getJsonArray("results");
        }
    }

    private static Target target(Args args, BucketStore store, String scope) {
        String node = CellOwner.node(store, scope, args.get("node"), "the database's cell");
        return new Target(node, NodeCommand.address(store, node, args.get("address")), NodeCommand.fleetKey(store),
                Duration.ofMillis(NodeCommand.timeoutMs(args.get("timeout-ms"))), scope);
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

    /** The binding or database_name {@code name} of the Wrangler config, with its migrations settings. */
    private static Database database(Args args, String name) {
        Path config = args.get("config") != null ? Path.of(args.get("config")) : configIn(Path.of(""));
        if (config == null || !Files.isRegularFile(config)) {
            throw CommandException.refused("no Wrangler config (" + (config == null ? "none in the current directory" : config)
                    + "): name it with --config");
        }
        WranglerConfig c;
        try {
            c = WranglerConfig.read(config, args.get("env"));
        } catch (IllegalArgumentException e) {
            throw CommandException.refused(e.getMessage());
        }
        List<D1DatabaseBinding> all = c.bindings().stream().filter(D1DatabaseBinding.class::isInstance).map(D1DatabaseBinding.class::cast)
                .toList();
        D1DatabaseBinding b = all.stream().filter(x -> x.name().equals(name)).findFirst()
                .or(() -> all.stream().filter(x -> name.equals(x.databaseName())).findFirst())
                .orElseThrow(() -> CommandException.refused("no D1 database " + name + " in " + config + " (d1_databases: "
                        + all.stream().map(D1DatabaseBinding::name).toList() + ")"));
        // migrations_dir / migrations_table are read by this command only: from the raw entry of the same binding.
        JsonObject raw = WranglerConfig.raw(config);
        if (args.get("env") != null && raw.getJsonObject("env") != null && raw.getJsonObject("env").getJsonObject(args.get("env")) != null) {
            raw = raw.getJsonObject("env").getJsonObject(args.get("env"));
        }
        JsonObject entry = new JsonObject();
        for (Object e : raw.getJsonArray("d1_databases", new JsonArray())) {
            if (e instanceof JsonObject o && b.name().equals(o.getValue("binding"))) {
                entry = o;
            }
        }
        Path base = config.toAbsolutePath().getParent();
        return new Database(b, base.resolve(entry.getString("migrations_dir", "migrations")), entry.getString("migrations_table", "d1_migrations"));
    }

    private static Path configIn(Path dir) {
        for (String n : new String[] {"wrangler.json", "wrangler.jsonc", "wrangler.toml"}) {
            if (Files.isRegularFile(dir.resolve(n))) {
                return dir.resolve(n);
            }
        }
        return null;
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
