package dev.cellgate.deploy.cli;

import java.util.Set;

/** One {@code deploy-tool} command: the options it accepts (anything else is refused) and what it does. */
public interface Command {
    /** Options every command accepts. */
    Set<String> COMMON_VALUED = Set.of("bucket", "endpoint", "region");
    Set<String> COMMON_FLAGS = Set.of("json", "help");

    String name();

    /** Options taking a value, besides {@link #COMMON_VALUED}. */
    Set<String> valued();

    /** Options without a value, besides {@link #COMMON_FLAGS}; most commands have none. */
    default Set<String> flags() {
        return Set.of();
    }

    /** The command's usage text (shown by {@code deploy-tool CMD --help}). */
    String usage();

    /** Runs the command; returns its exit code ({@link ExitCodes}) or throws {@link CommandException}. */
    int run(Args args, Tool tool);

    /** What a command gets from the process: environment, output, plugins, the bucket opener. */
    record Tool(Env env, Output out, ToolPlugins plugins, StoreOpener stores) {
    }
}
