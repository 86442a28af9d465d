package dev.cellgate.deploy.push;

import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Which Worker a command addresses, by push's rules: the Wrangler config ({@code --config}, else
 * {@code wrangler.json}, {@code wrangler.jsonc} or {@code wrangler.toml} in the directory, in
 * Wrangler's order), its environment ({@code --env}, Wrangler's inheritance and
 * {@code <name>-<env>} naming), and the name ({@code --name}, else the config's). {@code push}
 * reads its bundle through this ({@link BundleReader}); {@code secret} addresses the Worker with
 * it and nothing else, so a secret lands under the name a push of the same project deploys.
 *
 * @param configFile the config read, or null when there is none
 */
public record WorkerTarget(Path configFile, WranglerConfig config, String name) {
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");

    /**
     * The Worker of {@code --config}/{@code --env}/{@code --name}, the config looked for in {@code dir}
     * when {@code --config} is not given (as {@code wrangler secret} looks in the working directory).
     */
    public static WorkerTarget select(Path dir, String configOption, String environment, String nameOption) {
        Path cfg = configOption != null ? existing(Path.of(configOption)) : configIn(dir);
        if (cfg == null && environment != null) {
            throw CommandException.refused("--env " + environment + " needs a Wrangler config (--config, or one in " + dir.toAbsolutePath() + ")");
        }
        WranglerConfig config = readConfig(cfg, environment);
        if (nameOption == null && config.name() == null) {
            throw CommandException.usage("which Worker? Pass --name NAME, or --config a Wrangler config with \"name\""
                    + (cfg == null ? " (there is none in " + dir.toAbsolutePath() + ")" : " (" + cfg + " has none)"));
        }
        return new WorkerTarget(cfg, config, name(nameOption, config, null));
    }

    /** {@code --config FILE}, which must exist. */
    static Path existing(Path configFile) {
        if (!Files.isRegularFile(configFile)) {
            throw CommandException.refused("config " + configFile + " does not exist");
        }
        return configFile;
    }

    /** The config in {@code dir}, in Wrangler's order of preference; null when there is none. */
    static Path configIn(Path dir) {
        for (String n : new String[] {"wrangler.json", "wrangler.jsonc", "wrangler.toml"}) {
            Path p = dir.resolve(n);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /** {@code cfg} for {@code environment} (the empty config when {@code cfg} is null); every refusal at once. */
    static WranglerConfig readConfig(Path cfg, String environment) {
        try {
            return cfg == null ? WranglerConfig.parse(new io.vertx.core.json.JsonObject(), "(no wrangler config)")
                    : WranglerConfig.read(cfg, environment);
        } catch (IllegalArgumentException e) {
            throw CommandException.refused(e.getMessage());
        }
    }

    /** {@code --name}, else the config's name, else {@code fallback}; refused unless a valid Worker name. */
    static String name(String nameOption, WranglerConfig config, String fallback) {
        String name = nameOption != null ? nameOption : config.name() != null ? config.name() : fallback;
        if (name == null || !NAME.matcher(name).matches()) {
            throw CommandException.refused("Worker name '" + name + "' must be 1-63 letters, digits, - and _, starting with a "
                    + "letter or digit (set \"name\" in the config or use --name)");
        }
        return name;
    }
}
