package dev.cellgate.deploy.push;

import dev.cellgate.core.deploy.SecretStore;
import dev.cellgate.core.logic.SecretNames;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.CommandException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Worker's secrets at push time, checked before anything is uploaded: every name of
 * {@code secrets.required} must be set ({@code deploy-tool secret put}), and no secret may have
 * the name of a binding the config declares — each problem named, all at once. A push carries every
 * secret in force, required or not (as a Cloudflare deploy keeps the Worker's secrets).
 */
final class PushSecrets {
    private PushSecrets() {
    }

    /** Name to version of every secret of {@code b}'s Worker in {@code bucket}; refused naming every missing or clashing one. */
    static Map<String, String> inForce(BucketStore bucket, Bundle b) {
        Map<String, String> versions = new SecretStore(bucket).versions(b.name()).join();
        List<String> problems = new ArrayList<>();
        List<String> missing = SecretNames.missing(b.config().requiredSecrets(), versions.keySet());
        if (!missing.isEmpty()) {
            problems.add("secrets.required: " + missing.size() + " secret(s) of " + b.name() + " are not set: " + String.join(", ", missing)
                    + " (set each with: deploy-tool secret put NAME --name " + b.name() + " --bucket " + bucket.url() + ")");
        }
        List<String> clashes = SecretNames.clashes(bindingNames(b), versions.keySet());
        if (!clashes.isEmpty()) {
            problems.add("binding name already in use: " + String.join(", ", clashes) + " is a secret of " + b.name()
                    + " and also a binding in the config; rename the binding, or delete the secret (deploy-tool secret delete NAME)");
        }
        if (!problems.isEmpty()) {
            throw CommandException.refused(String.join("\n", problems) + "\nnothing was uploaded");
        }
        return versions;
    }

    /** The env names the config declares: vars, Durable Object namespaces, storage bindings, the assets binding. */
    private static List<String> bindingNames(Bundle b) {
        List<String> names = new ArrayList<>(b.config().vars().keySet());
        names.addAll(b.config().durableObjects().keySet());
        b.config().bindings().forEach(x -> names.add(x.name()));
        if (b.config().assets() != null && b.config().assets().binding() != null) {
            names.add(b.config().assets().binding());
        }
        return names;
    }
}
