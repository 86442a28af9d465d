package dev.cellgate.deploy.storage;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.CommandException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * What the {@code kv} and {@code r2} commands share: naming the namespace or bucket (directly, or
 * by the binding name of the current deployment, as {@code wrangler --binding} does) and waiting
 * for the same host objects Workers call, so a CLI write obeys the same limits and lands where the
 * binding reads.
 */
final class BindingTargets {
    private BindingTargets() {
    }

    /** {@code --<direct>} if given, else the {@code field} of the current deployment's binding {@code --binding} of {@code type}. */
    static String resolve(Args args, BucketStore store, String direct, String type, String field) {
        String id = args.get(direct);
        String binding = args.get("binding");
        if ((id == null) == (binding == null)) {
            throw CommandException.usage("name the target with exactly one of --" + direct + " and --binding");
        }
        if (id != null) {
            return id;
        }
        DeploymentStore d = new DeploymentStore(store);
        String current = d.current().join().map(r -> r.value().deployment())
                .orElseThrow(() -> CommandException.refused("--binding " + binding + ": no deployment is current in " + store.url()));
        Manifest m = d.manifest(current).join();
        for (Binding b : m.bindings()) {
            if (b.name().equals(binding)) {
                if (!b.type().equals(type)) {
                    throw CommandException.refused("binding " + binding + " of " + current + " is a " + b.type() + ", not a " + type);
                }
                return b.settings().getString(field);
            }
        }
        throw CommandException.refused("the current deployment " + current + " has no binding " + binding);
    }

    /** The stage's value; a refusal of the binding (a limit, a bad key) is a refusal of the command. */
    static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof BindingCallException b) {
                throw CommandException.refused(b.getMessage());
            }
            throw CommandException.failed(String.valueOf(c.getMessage()), c);
        }
    }
}
