package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.util.List;
import java.util.Map;

/**
 * What a push uploads, validated: the Wrangler config, the Worker name, the module bytes by path
 * (main first) with each module's type (ES modules where {@code types} says nothing), the plugin
 * jars the deployment carries, and how the modules were made (for the user: "bundled with esbuild
 * 0.28.2", "single module"), and the static assets directory when the config has {@code assets}.
 */
public record Bundle(WranglerConfig config, String name, String main, Map<String, byte[]> modules, List<PluginJar> plugins,
                     String origin, Map<String, ModuleType> types, AssetsDirectory assets) {

    public Bundle(WranglerConfig config, String name, String main, Map<String, byte[]> modules, List<PluginJar> plugins,
                  String origin, Map<String, ModuleType> types) {
        this(config, name, main, modules, plugins, origin, types, null);
    }

    public Bundle(WranglerConfig config, String name, String main, Map<String, byte[]> modules, List<PluginJar> plugins,
                  String origin) {
        this(config, name, main, modules, plugins, origin, Map.of());
    }

    /** An assets-only project: no {@code main}, so the assets answer every request ({@link AssetsOnlyWorker}). */
    public boolean assetsOnly() {
        return assets != null && config.main() == null && AssetsOnlyWorker.MODULE.equals(main);
    }

    public ModuleType type(String path) {
        return types.getOrDefault(path, ModuleType.ES_MODULE);
    }

    /** A PF4J plugin jar carried by the deployment ({@code --plugin}); nodes hot-load it. */
    public record PluginJar(String fileName, String pluginId, byte[] bytes) {
    }

    public Bundle {
        modules = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(modules));
        plugins = List.copyOf(plugins);
        types = Map.copyOf(types);
    }

    public Bundle withPlugins(List<PluginJar> jars) {
        return new Bundle(config, name, main, modules, jars, origin, types, assets);
    }

    public long totalBytes() {
        long n = 0;
        for (byte[] b : modules.values()) {
            n += b.length;
        }
        for (PluginJar p : plugins) {
            n += p.bytes().length;
        }
        return n + (assets == null ? 0 : assets.totalBytes());
    }
}
