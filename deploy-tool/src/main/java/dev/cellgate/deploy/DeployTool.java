package dev.cellgate.deploy;

import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.cli.Output;
import dev.cellgate.deploy.cli.StoreOpener;
import dev.cellgate.deploy.cli.ToolPlugins;
import dev.cellgate.deploy.cells.CellsCommand;
import dev.cellgate.deploy.dev.DevCommand;
import dev.cellgate.deploy.diagnose.DiagnoseCommand;
import dev.cellgate.deploy.history.ListCommand;
import dev.cellgate.deploy.history.RollbackCommand;
import dev.cellgate.deploy.operator.NodeCommand;
import dev.cellgate.deploy.push.PushCommand;
import dev.cellgate.deploy.secret.SecretCommand;
import dev.cellgate.deploy.storage.KvCommand;
import dev.cellgate.deploy.storage.R2Command;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code deploy-tool push|list|rollback|diagnose|node|kv|r2|secret|dev|cells}. Exit codes are in {@link ExitCodes} and
 * docs/deploy.md. Everything a run needs from its process comes through {@link Env}, so tests
 * drive this same entry point in-process.
 */
public final class DeployTool {
    private static final List<Command> COMMANDS = List.of(new PushCommand(), new ListCommand(), new RollbackCommand(),
            new DiagnoseCommand(), new NodeCommand(), new KvCommand(), new R2Command(), new SecretCommand(), new DevCommand(), new CellsCommand(),
            new dev.cellgate.deploy.operator.D1Command());

    private DeployTool() {
    }

    public static void main(String[] argv) {
        int code = run(argv);
        System.out.flush();
        System.err.flush();
        // halt, not exit: GraalJS and PF4J may leave non-daemon threads that would keep the JVM alive.
        Runtime.getRuntime().halt(code);
    }

    public static int run(String[] argv) {
        return run(argv, Env.system());
    }

    public static int run(String[] argv, Env env) {
        return run(argv, env, COMMANDS);
    }

    /** @param commands the command set (tests substitute one, e.g. diagnose over a broken storage check) */
    public static int run(String[] argv, Env env, List<Command> commands) {
        Map<String, Command> byName = new LinkedHashMap<>();
        commands.forEach(c -> byName.put(c.name(), c));
        if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("-h") || argv[0].equals("help")) {
            (argv.length == 0 ? env.err() : env.out()).print(usage(commands));
            return argv.length == 0 ? ExitCodes.USAGE : ExitCodes.OK;
        }
        Command command = byName.get(argv[0]);
        boolean json = Arrays.asList(argv).contains("--json");
        Output out = new Output(env.out(), env.err(), json);
        if (command == null) {
            out.error(ExitCodes.USAGE, "unknown command '" + argv[0] + "' (commands: " + byName.keySet() + "; see deploy-tool --help)");
            return ExitCodes.USAGE;
        }
        Args args;
        try {
            Set<String> valued = new HashSet<>(Command.COMMON_VALUED);
            valued.addAll(command.valued());
            Set<String> flags = new HashSet<>(Command.COMMON_FLAGS);
            flags.addAll(command.flags());
            args = Args.parse(Arrays.copyOfRange(argv, 1, argv.length), valued, flags);
        } catch (IllegalArgumentException e) {
            return out.error(ExitCodes.USAGE, argv[0] + ": " + e.getMessage() + "\n" + command.usage());
        }
        if (args.flag("help")) {
            env.out().print("Usage: deploy-tool " + command.usage().strip() + "\n\n" + common());
            return ExitCodes.OK;
        }
        try (ToolPlugins plugins = ToolPlugins.locate(env)) {
            return command.run(args, new Command.Tool(env, out, plugins, new StoreOpener(plugins, env)));
        } catch (CommandException e) {
            return out.error(e.exitCode(), e.getMessage());
        } catch (RuntimeException e) {
            return out.error(ExitCodes.FAILED, argv[0] + " failed: " + e);
        }
    }

    static String usage(List<Command> commands) {
        StringBuilder b = new StringBuilder("Usage: deploy-tool <command> [options]\n\n");
        commands.forEach(c -> b.append(c.usage()).append('\n'));
        return b.append(common()).toString();
    }

    private static String common() {
        return """
                Options of every command:
                  --bucket URL      file:///path, s3://bucket[/prefix], gs://bucket[/prefix]
                                    (default: $CELLD_BUCKET, else file://./cellgate-data/bucket)
                  --endpoint URL    S3-compatible endpoint (default: $S3_ENDPOINT)
                  --region REGION   S3 region (default: $AWS_REGION); credentials: the AWS/Google default chains
                  --json            one JSON object on stdout (errors too); progress off unless --progress

                Environment: CELLD_ESBUILD (esbuild binary), CELLD_PLUGINS_DIR, CELLD_PROGRESS, CELLD_CPU_MS,
                CELLD_GATEWAY_JAR (the node dev starts), NO_COLOR (dev without colour).

                Exit codes: 0 done; 1 bucket, network or installation failure; 2 bad usage;
                3 refused by validation (nothing written); 4 conflict with a concurrent change (re-run);
                5 diagnose found problems.
                """;
    }
}
