package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.progress.Progress;
import dev.cellgate.deploy.progress.ProgressMode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code deploy-tool push}: read and validate everything (config, bundle or esbuild output,
 * plugin jars, a load in GraalJS), and only then write: blobs, manifest, {@code current}.
 */
public final class PushCommand implements Command {
    @Override
    public String name() {
        return "push";
    }

    @Override
    public Set<String> valued() {
        return Set.of("config", "env", "name", "plugin", "progress");
    }

    @Override
    public Set<String> flags() {
        return Set.of("dry-run");
    }

    @Override
    public String usage() {
        return """
                  push <bundle.js|DIR> [--config wrangler.jsonc] [--env NAME] [--name NAME] [--plugin x.jar]...
                                       [--dry-run] [--progress bar|lines|off]
                      Validate, upload and make current a new deployment. DIR is a Wrangler project
                      (wrangler.json, wrangler.jsonc or wrangler.toml): its build.command runs, then
                      its main is bundled with esbuild (no_bundle: pushed as it is). Files the module
                      rules type (Text, Data, CompiledWasm, CommonJS...) become modules of their own.
                      --env NAME deploys the config's env.NAME, with Wrangler's inheritance rules.
                      Every refused config key is named in one error; hosting-only keys (routes,
                      workers_dev, observability...) get one note each. --plugin attaches a PF4J
                      plugin jar that nodes hot-load.
                      --dry-run validates (including the GraalJS load) and writes nothing.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        if (args.positional().size() != 1) {
            throw CommandException.usage("push needs exactly one bundle file or project directory");
        }
        ProgressMode mode;
        try {
            mode = ProgressMode.decide(args.get("progress"), tool.env().get("CELLD_PROGRESS"), tool.out().json(),
                    tool.env().get("DEPLOY_TOOL_STDERR_TTY"), tool.env().get("TERM"), ProgressMode::stderrLink);
        } catch (IllegalArgumentException e) {
            throw CommandException.usage(e.getMessage());
        }
        Push.Checked checked = Push.check(Path.of(args.positional().get(0)),
                args.get("config") == null ? null : Path.of(args.get("config")), args.get("name"), args.get("env"),
                args.all("plugin"), tool.env(), tool.plugins(), tool.out()::note);
        Bundle bundle = checked.bundle();
        Set<String> exported = checked.exported();
        JsonObject summary = new JsonObject().put("name", bundle.name()).put("main", bundle.main()).put("origin", bundle.origin())
                .put("modules", new JsonArray(bundle.modules().keySet().stream().toList()))
                .put("plugins", new JsonArray(bundle.plugins().stream().map(p -> p.fileName() + " (" + p.pluginId() + ")").toList()))
                .put("exported_classes", new JsonArray(exported.stream().sorted().toList()));
        if (args.flag("dry-run")) {
            tool.out().result(summary.put("dry_run", true), bundle.name() + " is valid (" + bundle.origin() + "; exports "
                    + exported + "); --dry-run: nothing written");
            return ExitCodes.OK;
        }
        Progress progress = mode.open(tool.out().err());
        try (BucketStore store = tool.stores().open(args)) {
            Push.Published published = Push.publish(store, bundle, progress);
            Publisher.Result r = published.result();
            java.util.Map<String, String> secrets = published.secrets();
            summary.put("deployment", r.deployment()).put("previous", r.previous()).put("bucket", store.url())
                    .put("secrets", new JsonArray(secrets.keySet().stream().toList())).put("secrets_settled", r.secretsSettled())
                    .put("blobs_uploaded", r.blobsUploaded()).put("blobs_reused", r.blobsReused()).put("cas_retries", r.casRetries());
            tool.out().result(summary, "deployed " + bundle.name() + " as " + r.deployment() + " to " + store.url()
                    + (r.previous() == null ? "" : " (previous: " + r.previous() + ")"));
            return ExitCodes.OK;
        }
    }
}
