package dev.cellgate.deploy.cli;

import dev.cellgate.core.plugin.PluginHost;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tool's PF4J plugins (bucket stores, the JavaScript engine), started on first use. The
 * directory is {@code CELLD_PLUGINS_DIR} when set, else {@code plugins/} next to
 * {@code deploy-tool.jar}, else (running from {@code target/classes}, as tests do) the
 * {@code plugins/} directory beside it that {@code mvn package} fills.
 */
public final class ToolPlugins implements AutoCloseable {
    private final Path dir;
    private PluginHost host;

    public ToolPlugins(Path dir) {
        this.dir = dir;
    }

    public static ToolPlugins locate(Env env) {
        String set = env.get("CELLD_PLUGINS_DIR");
        return new ToolPlugins(set != null ? Path.of(set) : besideCode());
    }

    /** The directory in use, or null when none was found. */
    public Path dir() {
        return dir;
    }

    /** The started plugin host, or null when there is no plugins directory. */
    public synchronized PluginHost host() {
        if (host == null && dir != null && Files.isDirectory(dir)) {
            host = new PluginHost(dir);
            host.start();
        }
        return host;
    }

    private static Path besideCode() {
        try {
            Path code = Path.of(ToolPlugins.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // deploy-tool.jar -> its directory; target/classes -> target
            return code.getParent() == null ? null : code.getParent().resolve("plugins");
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public synchronized void close() {
        if (host != null) {
            host.close();
            host = null;
        }
    }
}
