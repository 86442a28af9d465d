package dev.cellgate.gateway.node;

import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.js.Egress;
import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.JsEngineProvider;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;

/** Finds the JavaScript engine among the plugins (there must be exactly one). */
final class Engines {
    private Engines() {
    }

    /** The engine, serving the binding types of this build ({@code FleetBindings}) over the fleet bucket. */
    static JsEngine create(PluginHost plugins, Vertx vertx, NodeConfig config, String nodeId, Path pluginsDir, Egress egress,
                           dev.cellgate.core.spi.bucket.BucketStore bucket) throws StartupException {
        List<JsEngineProvider> found = plugins.extensions(JsEngineProvider.class);
        if (found.isEmpty()) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "no JavaScript engine plugin in " + pluginsDir
                    + " (expected js-graal.jar; it holds " + plugins.jarNames() + ")");
        }
        if (found.size() > 1) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "several JavaScript engine plugins in " + pluginsDir + ": "
                    + found.stream().map(JsEngineProvider::name).toList() + "; keep one");
        }
        try {
            return found.get(0).create(new JsEngineConfig(vertx, config.cpuMs(), config.maxRequestBodyBytes(), nodeId, egress, config.cacheBytes(),
                    dev.cellgate.core.bindings.FleetBindings.registry(bucket)));
        } catch (RuntimeException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "the JavaScript engine did not start: " + e);
        }
    }
}
