package dev.cellgate.gateway.node;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.gateway.http.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * {@code POST /restore/<scope>?bookmark=B | time=MS [&dry_run=1]} (SPEC §22, {@code deploy-tool
 * cells restore}): restores a cell to a bookmark, or to the state it had at a time, on THIS node,
 * which must own the cell or be free to take it. A dry run changes nothing: it rebuilds the state
 * into a scratch file and answers what it holds (rows per table, KV keys). OperatorAuth has
 * checked the caller before this route runs.
 */
final class PointInTimeRoutes {
    private final Cells cells;
    private final Replicator replicator;
    private final Path scratch;
    private final Executor io;

    PointInTimeRoutes(Cells cells, Replicator replicator, Path scratch, Executor io) {
        this.cells = cells;
        this.replicator = replicator;
        this.scratch = scratch;
        this.io = io;
    }

    void mount(Router r) {
        r.post("/restore/:scope").handler(this::restore);
    }

    private void restore(RoutingContext ctx) {
        String scope = ctx.pathParam("scope");
        if (!Scopes.isValid(scope)) {
            Json.send(ctx.response(), 400, Json.error("a scope is <ClassName>:<64 lowercase hex>, got '" + scope + "'"));
            return;
        }
        String bookmark = ctx.request().getParam("bookmark");
        String time = ctx.request().getParam("time");
        boolean dry = "1".equals(ctx.request().getParam("dry_run"));
        if ((bookmark == null) == (time == null)) {
            Json.send(ctx.response(), 400, Json.error("name exactly one of bookmark=B and time=MS"));
            return;
        }
        CompletableFuture<Bookmark> target;
        try {
            target = bookmark != null ? CompletableFuture.completedFuture(Bookmark.parse(bookmark))
                    : replicator.bookmarkForTime(scope, Long.parseLong(time));
        } catch (IllegalArgumentException e) {
            Json.send(ctx.response(), 400, Json.error(e.getMessage()));
            return;
        }
        Context vctx = Vertx.currentContext();
        CellIdentity id = new CellIdentity(Scopes.className(scope), Scopes.hexId(scope), null);
        target.thenCompose(b -> dry ? describe(scope, b)
                        : cells.restoreTo(id, b.encode()).thenApply(undo -> summary(b).put("restored", true).put("undo", undo)))
                .whenComplete((out, e) -> vctx.runOnContext(v -> {
                    if (e != null) {
                        Throwable c = e.getCause() != null ? e.getCause() : e;
                        Json.send(ctx.response(), c instanceof IllegalArgumentException ? 400 : 409, Json.error(c.getMessage()));
                        return;
                    }
                    Json.send(ctx.response(), 200, out.put("scope", scope).put("dry_run", dry));
                }));
    }

    private static JsonObject summary(Bookmark b) {
        return new JsonObject().put("bookmark", b.encode()).put("time_ms", b.timeMs()).put("epoch", b.epoch()).put("txid", b.txid());
    }

    /** Rebuilds the state into a scratch file and counts what it holds; the file is deleted after. */
    private CompletableFuture<JsonObject> describe(String scope, Bookmark b) {
        Path dir;
        try {
            Files.createDirectories(scratch);
            dir = Files.createTempDirectory(scratch, "dry-run-");
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        Path db = dir.resolve("cell.db");
        return replicator.restoreTo(scope, Long.MAX_VALUE, db, b).thenApplyAsync(r -> {
            JsonObject out = summary(b).put("restored", false).put("database_bytes", r.databaseBytes());
            try {
                out.mergeIn(count(db));
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read the rebuilt state of " + scope + ": " + e.getMessage(), e);
            }
            return out;
        }, io).whenComplete((x, e) -> deleteTree(dir));
    }

    static JsonObject count(Path db) throws SQLException {
        JsonObject tables = new JsonObject();
        long kvKeys = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro")) {
            List<String> names = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String n : names) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + n.replace("\"", "\"\"") + "\"")) {
                    long rows = rs.next() ? rs.getLong(1) : 0;
                    if (n.equals("_cf_KV")) {
                        kvKeys = rows;
                    } else if (!n.startsWith("_cf_")) {
                        tables.put(n, rows);
                    }
                }
            }
        }
        return new JsonObject().put("tables", tables).put("kv_keys", kvKeys);
    }

    private static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // scratch only: a leftover is harmless
        }
    }
}
