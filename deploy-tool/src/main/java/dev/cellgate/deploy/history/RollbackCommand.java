package dev.cellgate.deploy.history;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code deploy-tool rollback [ID]}: see {@link Rollback}. */
public final class RollbackCommand implements Command {
    @Override
    public String name() {
        return "rollback";
    }

    @Override
    public Set<String> valued() {
        return Set.of();
    }

    @Override
    public String usage() {
        return """
                  rollback [ID]
                      Make the previous deployment current again (or the one named ID). Running it
                      twice returns to where you started: the rolled-back-from one becomes "previous".
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        if (args.positional().size() > 1) {
            throw CommandException.usage("rollback takes at most one deployment id");
        }
        String id = args.positional().isEmpty() ? null : args.positional().get(0);
        try (BucketStore store = tool.stores().open(args)) {
            Rollback.Result r = new Rollback(new DeploymentStore(store)).run(id);
            tool.out().result(new JsonObject().put("deployment", r.deployment()).put("previous", r.from())
                    .put("changed", r.changed()).put("bucket", store.url()),
                    r.changed() ? "rolled back " + store.url() + " from " + r.from() + " to " + r.deployment()
                            : r.deployment() + " is already current in " + store.url() + "; nothing changed");
            return ExitCodes.OK;
        }
    }
}
