package dev.cellgate.deploy.history;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.records.CurrentDeployment;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code deploy-tool list}: the deployments in the bucket, newest first, the current one marked.
 * A manifest that does not parse is listed with its error, not skipped: a broken entry in history
 * is something to see.
 */
public final class ListCommand implements Command {
    static final int DEFAULT_LIMIT = 20;
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @Override
    public String name() {
        return "list";
    }

    @Override
    public Set<String> valued() {
        return Set.of("limit");
    }

    @Override
    public Set<String> flags() {
        return Set.of("all");
    }

    @Override
    public String usage() {
        return """
                  list [--limit N | --all]
                      Deployments, newest first (default the last 20); * marks the current one.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        if (!args.positional().isEmpty()) {
            throw CommandException.usage("list takes no arguments (got " + args.positional() + ")");
        }
        int limit = limit(args);
        try (BucketStore store = tool.stores().open(args)) {
            DeploymentStore d = new DeploymentStore(store);
            String current = null;
            String previous = null;
            String currentError = null;
            try {
                Optional<StoredRecord<CurrentDeployment>> cur = d.current().join();
                current = cur.map(r -> r.value().deployment()).orElse(null);
                previous = cur.map(r -> r.value().previous()).orElse(null);
            } catch (RuntimeException e) {
                currentError = Rollback.root(e); // still list history: it is how one recovers from this
            }
            List<String> ids;
            try {
                ids = new ArrayList<>(d.list().join());
            } catch (RuntimeException e) {
                throw CommandException.failed("cannot list deployments in " + store.url() + ": " + Rollback.root(e), e);
            }
            List<Row> shown = newest(d, ids, limit);
            JsonArray rows = new JsonArray();
            StringBuilder text = new StringBuilder();
            text.append(String.format("  %-30s %-20s %-19s %7s %10s%n", "DEPLOYMENT", "NAME", "CREATED (UTC)", "MODULES", "SIZE"));
            for (Row row : shown) {
                String id = row.id();
                String mark = id.equals(current) ? "*" : " ";
                JsonObject j = new JsonObject().put("id", id).put("current", id.equals(current));
                if (row.manifest() != null) {
                    Manifest m = row.manifest();
                    long bytes = m.modules().stream().mapToLong(Manifest.BlobRef::size).sum()
                            + m.plugins().stream().mapToLong(Manifest.BlobRef::size).sum();
                    j.put("name", m.name()).put("created_ms", m.createdMs()).put("main", m.main())
                            .put("modules", m.modules().size()).put("plugins", m.plugins().size()).put("bytes", bytes)
                            .put("compatibility_date", m.compatibilityDate());
                    text.append(String.format("%s %-30s %-20s %-19s %7d %10s%s%n", mark, id, m.name(),
                            WHEN.format(Instant.ofEpochMilli(m.createdMs())), m.modules().size(), Sizes.human(bytes),
                            m.plugins().isEmpty() ? "" : "  +" + m.plugins().size() + " plugin(s)"));
                } else {
                    j.put("error", row.error());
                    text.append(String.format("%s %-30s UNREADABLE: %s%n", mark, id, row.error()));
                }
                rows.add(j);
            }
            if (ids.isEmpty()) {
                text.setLength(0);
                text.append("no deployments in ").append(store.url()).append('\n');
            } else if (shown.size() < ids.size()) {
                text.append("(").append(ids.size() - shown.size()).append(" older; --all shows every one)\n");
            }
            if (currentError != null) {
                text.append("deploy/current.json is unreadable: ").append(currentError).append('\n');
            } else if (current != null && !ids.contains(current)) {
                text.append("deploy/current.json names ").append(current).append(", which has no manifest\n");
            }
            tool.out().result(new JsonObject().put("bucket", store.url()).put("current", current).put("previous", previous)
                    .put("current_error", currentError).put("total", ids.size()).put("deployments", rows), text.toString());
            return ExitCodes.OK;
        }
    }

    /** A listed deployment: its manifest, or why it could not be read. */
    private record Row(String id, Manifest manifest, String error) {
        long createdMs() {
            return manifest == null ? Long.MIN_VALUE : manifest.createdMs();
        }
    }

    /**
     * The {@code limit} newest deployments, newest first. Ids sort by their creation second only
     * (the suffix is random), so pushes within one second are ordered by the manifests'
     * {@code created_ms}: every id sharing a second with the last one shown is read to place it.
     */
    private static List<Row> newest(DeploymentStore d, List<String> oldestFirst, int limit) {
        List<String> ids = new ArrayList<>(oldestFirst);
        Collections.reverse(ids);
        int end = Math.min(limit, ids.size());
        while (end > 0 && end < ids.size() && second(ids.get(end)).equals(second(ids.get(end - 1)))) {
            end++;
        }
        List<Row> rows = new ArrayList<>();
        for (String id : ids.subList(0, end)) {
            try {
                rows.add(new Row(id, d.manifest(id).join(), null));
            } catch (RuntimeException e) {
                rows.add(new Row(id, null, Rollback.root(e)));
            }
        }
        rows.sort(Comparator.comparing((Row r) -> second(r.id())).thenComparingLong(Row::createdMs)
                .thenComparing(Row::id).reversed());
        return rows.subList(0, Math.min(limit, rows.size()));
    }

    /** {@code d-20261130T041350Z}: the part of an id that orders by time. */
    private static String second(String id) {
        int dash = id.lastIndexOf('-');
        return dash > 0 ? id.substring(0, dash) : id;
    }

    private static int limit(Args args) {
        if (args.flag("all")) {
            if (args.get("limit") != null) {
                throw CommandException.usage("--all and --limit exclude each other");
            }
            return Integer.MAX_VALUE;
        }
        String v = args.get("limit");
        if (v == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw CommandException.usage("--limit must be a positive integer (got '" + v + "')");
    }
}
