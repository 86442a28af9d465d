package dev.cellgate.deploy.cells;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.progress.Sizes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;

/** {@code deploy-tool cells list [--json]}: every Durable Object (cell) in the bucket, with owner, epoch, size and last write. */
public final class CellsCommand implements Command {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @Override
    public String name() {
        return "cells";
    }

    @Override
    public Set<String> valued() {
        return Set.of("to", "node", "address", "timeout-ms");
    }

    @Override
    public Set<String> flags() {
        return Set.of("dry-run");
    }

    @Override
    public String usage() {
        return """
                  cells list
                      Every cell (Durable Object) in the bucket: its scope (<Class>:<id>), the node that owns it
                      ("(released)" when none), its ownership epoch, the size and number of its objects and
                      its last write, read from the bucket (no node needs to run).
                  cells restore SCOPE --to TIME|BOOKMARK [--dry-run] [--node NODE]
                      Restore a cell to the state it had at TIME (ISO-8601 or epoch ms) or to a
                      bookmark (storage.getCurrentBookmark()), within CELLD_PITR_DAYS: the node that
                      owns it (--node while none does) restarts it on that state, a new lineage; the
                      answer names the bookmark that undoes it. --dry-run changes nothing and prints
                      the state it would restore (bookmark, time, rows per table, KV keys).
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() == 2 && p.get(0).equals("restore")) {
            if (!dev.cellgate.core.logic.Scopes.isValid(p.get(1))) {
                throw CommandException.usage("cells restore: '" + p.get(1) + "' is not a scope (<ClassName>:<64 lowercase hex>, as cells list shows)");
            }
            return dev.cellgate.deploy.operator.RestoreCall.run(args, tool, p.get(1), "cell " + p.get(1));
        }
        if (p.size() != 1 || !p.get(0).equals("list")) {
            throw CommandException.usage((p.isEmpty() ? "cells needs a subcommand" : "cells " + String.join(" ", p) + ": unknown")
                    + "; there are: cells list [--json], cells restore SCOPE --to TIME|BOOKMARK [--dry-run]");
        }
        List<CellSummary> cells;
        try (BucketStore store = tool.stores().open(args)) {
            try {
                cells = CellListing.read(store);
            } catch (RuntimeException e) {
                throw CommandException.failed("cannot list the cells of " + store.url() + ": " + rootMessage(e), e);
            }
            JsonArray json = new JsonArray();
            cells.forEach(c -> json.add(c.toJson()));
            tool.out().result(new JsonObject().put("bucket", store.url()).put("count", cells.size()).put("cells", json),
                    table(cells, store.url()));
        }
        return ExitCodes.OK;
    }

    static String table(List<CellSummary> cells, String url) {
        if (cells.isEmpty()) {
            return "no cells in " + url;
        }
        int scopeWidth = Math.max(5, cells.stream().mapToInt(c -> c.scope().length()).max().orElse(5));
        int ownerWidth = Math.max(10, cells.stream().mapToInt(c -> owner(c).length()).max().orElse(10));
        String format = "%-" + scopeWidth + "s  %-" + ownerWidth + "s  %6s  %10s  %7s  %s%n";
        StringBuilder b = new StringBuilder(String.format(format, "SCOPE", "OWNER", "EPOCH", "SIZE", "OBJECTS", "LAST WRITE (UTC)"));
        for (CellSummary c : cells) {
            b.append(String.format(format, c.scope(), owner(c), c.epoch() == 0 ? "-" : String.valueOf(c.epoch()), Sizes.human(c.size()),
                    c.objects(), c.lastWriteMs() < 0 ? "-" : WHEN.format(Instant.ofEpochMilli(c.lastWriteMs()))));
            if (c.error() != null) {
                b.append("    ").append(c.error()).append('\n');
            }
        }
        return b.append(cells.size()).append(" cell(s) in ").append(url).toString();
    }

    private static String owner(CellSummary c) {
        return c.error() != null ? "UNREADABLE" : c.released() ? "(released)" : c.owner();
    }

    private static String rootMessage(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof java.util.concurrent.CompletionException || c.getMessage() == null)) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }
}
