package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Set;

/** {@code deploy-tool diagnose}: see {@link Diagnosis}. Exit 0 when nothing is wrong, 5 when anything is. */
public final class DiagnoseCommand implements Command {
    static final long DEFAULT_TIMEOUT_MS = 10_000;

    private final StorageCheck storage;

    public DiagnoseCommand() {
        this(StorageCheck.NODE_PROBE);
    }

    public DiagnoseCommand(StorageCheck storage) {
        this.storage = storage;
    }

    @Override
    public String name() {
        return "diagnose";
    }

    @Override
    public Set<String> valued() {
        return Set.of("peer", "timeout-ms");
    }

    @Override
    public Set<String> flags() {
        return Set.of("read-only");
    }

    @Override
    public String usage() {
        return """
                  diagnose [--peer NODE]... [--read-only] [--timeout-ms N]
                      Check a fleet: every node lease (live, expired, malformed, unsafe address), a
                      signed probe of each live node (or of each --peer), the current deployment,
                      and the storage conditional-write probe (writes under probe/; skipped with
                      --read-only). Exits 5 when anything is wrong.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        if (!args.positional().isEmpty()) {
            throw CommandException.usage("diagnose takes no arguments (got " + args.positional() + "); name nodes with --peer");
        }
        Duration timeout = Duration.ofMillis(timeoutMs(args.get("timeout-ms")));
        try (BucketStore store = tool.stores().open(args)) {
            JsonObject report = new Diagnosis(store, storage, timeout, args.all("peer"), args.flag("read-only")).run();
            tool.out().report(report, DiagnoseReport.text(report));
            return report.getBoolean("ok") ? ExitCodes.OK : ExitCodes.UNHEALTHY;
        }
    }

    private static long timeoutMs(String v) {
        if (v == null) {
            return DEFAULT_TIMEOUT_MS;
        }
        try {
            long n = Long.parseLong(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw CommandException.usage("--timeout-ms must be a positive integer (got '" + v + "')");
    }
}
