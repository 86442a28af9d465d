package dev.cellgate.deploy;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.StoreOpener;
import dev.cellgate.deploy.push.Bundle;
import dev.cellgate.deploy.push.BundleReader;
import dev.cellgate.deploy.push.Publisher;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code deploy-tool push|list|rollback}. Exit codes: 0 done, 1 the bucket or the fleet failed,
 * 2 bad usage or bad input (nothing was written).
 */
public final class DeployTool {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final Set<String> VALUED = Set.of("bucket", "config", "name", "endpoint", "region");
    private static final Set<String> FLAGS = Set.of("json", "help");

    private DeployTool() {
    }

    public static void main(String[] argv) {
        System.exit(run(argv));
    }

    static int run(String[] argv) {
        if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("help")) {
            System.out.print(usage());
            return argv.length == 0 ? USAGE : OK;
        }
        String command = argv[0];
        Args args;
        try {
            args = Args.parse(java.util.Arrays.copyOfRange(argv, 1, argv.length), VALUED, FLAGS);
        } catch (IllegalArgumentException e) {
            System.err.println("deploy-tool: " + e.getMessage());
            return USAGE;
        }
        try (StoreOpener opener = new StoreOpener()) {
            return switch (command) {
                case "push" -> push(args, opener);
                default -> {
                    System.err.println("deploy-tool: unknown command '" + command + "'\n" + usage());
                    yield USAGE;
                }
            };
        }
    }

    private static int push(Args args, StoreOpener opener) {
        if (args.positional().size() != 1) {
            System.err.println("deploy-tool: push needs exactly one bundle file or project directory");
            return USAGE;
        }
        Bundle bundle;
        try {
            bundle = BundleReader.read(Path.of(args.positional().get(0)),
                    args.get("config") == null ? null : Path.of(args.get("config")), args.get("name"));
        } catch (IllegalArgumentException e) {
            System.err.println("deploy-tool: " + e.getMessage());
            return USAGE;
        }
        boolean json = args.flag("json");
        try (BucketStore store = opener.open(args)) {
            Publisher.Result r = new Publisher(new DeploymentStore(store), line -> {
                if (!json) {
                    System.err.println(line);
                }
            }).publish(bundle);
            if (json) {
                System.out.println(new JsonObject().put("deployment", r.deployment()).put("previous", r.previous())
                        .put("bucket", store.url()).put("blobs_uploaded", r.blobsUploaded()).put("blobs_reused", r.blobsReused()).encode());
            } else {
                System.out.println("deployed " + bundle.name() + " as " + r.deployment() + " to " + store.url()
                        + (r.previous() == null ? "" : " (previous: " + r.previous() + ")"));
            }
            return OK;
        } catch (IllegalArgumentException e) {
            System.err.println("deploy-tool: " + e.getMessage());
            return USAGE;
        } catch (RuntimeException e) {
            System.err.println("deploy-tool: push failed: " + e.getMessage());
            return FAILED;
        }
    }

    static String usage() {
        return """
                Usage: deploy-tool <command> [options]

                  push <bundle.js|DIR> [--config wrangler.jsonc] [--name NAME] [--bucket URL] [--json]
                      Publish a Worker bundle as a new deployment and make it current.

                Options shared by all commands:
                  --bucket URL      file:///path, s3://bucket[/prefix], gs://bucket[/prefix]
                                    (default: $CELLD_BUCKET, else file://./cellgate-data/bucket)
                  --endpoint URL    S3-compatible endpoint (default: $S3_ENDPOINT)
                  --region REGION   S3 region (default: $AWS_REGION)
                  --json            machine-readable output

                Exit codes: 0 done, 1 bucket or fleet failure, 2 bad usage or input (nothing written).
                """;
    }
}
