package dev.cellgate.deploy.secret;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.SecretRelease;
import dev.cellgate.core.deploy.SecretStore;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.logic.SecretNames;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.push.WorkerTarget;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;

/**
 * {@code deploy-tool secret put|list|delete|bulk}, as Wrangler's {@code secret} commands, against
 * the fleet bucket. The Worker is chosen as {@code push} chooses it ({@link WorkerTarget}). A
 * change takes effect at once, without a push: it is stored ({@link SecretStore}), then the current
 * deployment is published again with it ({@link SecretRelease}), and every node switches to that as
 * after a push. Values come from stdin or an unechoed prompt ({@link SecretValues}) and are never
 * printed.
 */
public final class SecretCommand implements Command {
    @Override
    public String name() {
        return "secret";
    }

    @Override
    public Set<String> valued() {
        return Set.of("config", "env", "name");
    }

    @Override
    public String usage() {
        return """
                  secret put NAME | secret delete NAME | secret list | secret bulk FILE.json
                         [--config wrangler.jsonc] [--env NAME] [--name WORKER]
                      A Worker's secrets: strings on env, stored in the fleet bucket (secrets/<worker>/).
                      put reads the value from stdin, or asks for it without echo at a terminal (never
                      from the command line; trailing whitespace is trimmed, as Wrangler does). bulk
                      FILE: a JSON object of NAME to string value. list prints names only, as Wrangler.
                      A change is a new deployment of the current code at once: nodes switch to it
                      without a push (docs/deploy.md, "Secrets"). The Worker: --name, else the "name"
                      of --config or of the wrangler.json/jsonc/toml in this directory, for --env.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        String sub = p.isEmpty() ? "" : p.get(0);
        int operands = switch (sub) {
            case "put", "delete", "bulk" -> 1;
            case "list" -> 0;
            default -> throw CommandException.usage("secret: expected put, list, delete or bulk\n" + usage());
        };
        if (sub.equals("put") && p.size() > 2) {
            // never echo what was given: it may be the value
            throw CommandException.usage("secret put takes the value on stdin, never on the command line (it would stay in shell "
                    + "history and in ps): printf %s \"$VALUE\" | deploy-tool secret put NAME");
        }
        if (p.size() != 1 + operands) {
            throw CommandException.usage("secret " + sub + (operands == 0 ? " takes no operand" : " needs exactly one "
                    + (sub.equals("bulk") ? "FILE" : "NAME")) + "\n" + usage());
        }
        String operand = operands == 0 ? null : p.get(1);
        if (!sub.equals("bulk") && operand != null && SecretNames.problem(operand) != null) {
            throw CommandException.refused(SecretNames.problem(operand));
        }
        WorkerTarget target = WorkerTarget.select(Path.of(""), args.get("config"), args.get("env"), args.get("name"));
        String worker = target.name();
        // read every value before the bucket is touched: a bad input writes nothing
        Map<String, String> values = switch (sub) {
            case "put" -> Map.of(operand, SecretValues.read(tool.env(), operand));
            case "bulk" -> SecretValues.bulk(Path.of(operand));
            default -> Map.of();
        };
        try (BucketStore store = tool.stores().open(args)) {
            try {
                return switch (sub) {
                    case "list" -> list(tool, store, worker);
                    case "delete" -> delete(tool, store, worker, operand);
                    default -> set(tool, store, worker, values);
                };
            } catch (CompletionException e) {
                Throwable c = e.getCause() == null ? e : e.getCause();
                throw CommandException.failed("secret " + sub + " on " + store.url() + " failed: " + c.getMessage(), c);
            } catch (SecretRelease.ClashException e) {
                throw CommandException.refused(e.getMessage());
            } catch (IllegalStateException e) {
                throw CommandException.failed("secret " + sub + " on " + store.url() + ": " + e.getMessage(), e);
            }
        }
    }

    private static int list(Tool tool, BucketStore store, String worker) {
        JsonArray names = new JsonArray();
        new SecretStore(store).versions(worker).join().keySet()
                .forEach(n -> names.add(new JsonObject().put("name", n).put("type", SecretTextBinding.TYPE)));
        tool.out().result(new JsonObject().put("worker", worker).put("secrets", names), names.encodePrettily());
        return ExitCodes.OK;
    }

    private static int set(Tool tool, BucketStore store, String worker, Map<String, String> values) {
        refuseClashes(store, worker, values.keySet());
        SecretStore secrets = new SecretStore(store);
        for (Map.Entry<String, String> v : values.entrySet()) {
            secrets.put(worker, v.getKey(), v.getValue(), System.currentTimeMillis()).join();
        }
        SecretRelease.Outcome o = new SecretRelease(store, Ticker.SYSTEM).publish(worker, Set.of());
        String names = String.join(", ", values.keySet());
        return report(tool, worker, values.keySet(), o, "set " + names + " of " + worker);
    }

    private static int delete(Tool tool, BucketStore store, String worker, String name) {
        SecretStore secrets = new SecretStore(store);
        if (!secrets.versions(worker).join().containsKey(name)) {
            throw CommandException.refused("secret " + name + " of " + worker + " not found in " + store.url()
                    + " (deploy-tool secret list --name " + worker + " shows its secrets)");
        }
        // first a deployment without it, so that no node is left loading a value about to go; then every stored version
        SecretRelease.Outcome o = new SecretRelease(store, Ticker.SYSTEM).publish(worker, Set.of(name));
        int removed = secrets.delete(worker, name).join();
        return report(tool, worker, Set.of(name), o, "deleted " + name + " of " + worker + " (" + removed + " stored version(s))");
    }

    private static int report(Tool tool, String worker, Set<String> names, SecretRelease.Outcome o, String done) {
        JsonObject data = new JsonObject().put("worker", worker).put("secrets", new JsonArray(List.copyOf(names)))
                .put("deployment", o.published() ? o.deployment() : null).put("previous", o.previous());
        String text = done + (o.published()
                ? "; " + o.deployment() + " (the current code with it) is current: nodes switch to it without a push"
                : "; " + o.why());
        if (!o.published()) {
            data.put("note", o.why());
        }
        tool.out().result(data, text);
        return ExitCodes.OK;
    }

    /** As Cloudflare: a secret cannot take the name of another binding of the deployed Worker. */
    private static void refuseClashes(BucketStore store, String worker, Set<String> names) {
        DeploymentStore d = new DeploymentStore(store);
        Optional<String> current = d.current().join().map(r -> r.value().deployment());
        if (current.isEmpty()) {
            return;
        }
        Manifest m = d.manifest(current.get()).join();
        if (!m.name().equals(worker)) {
            return;
        }
        List<Binding> others = m.bindings().stream().filter(b -> !(b instanceof SecretTextBinding)).toList();
        List<String> clashes = SecretNames.clashes(others.stream().map(Binding::name).toList(), names);
        if (!clashes.isEmpty()) {
            throw CommandException.refused(SecretRelease.clashMessage(clashes, others) + " (the current deployment " + m.id()
                    + " binds it; nothing was stored)");
        }
    }
}
