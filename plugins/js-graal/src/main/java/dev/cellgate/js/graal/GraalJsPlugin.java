package dev.cellgate.js.graal;

import org.pf4j.Plugin;

/**
 * PF4J entry point of the js-graal plugin. Stopping the plugin closes every engine it created:
 * an open polyglot {@code Engine} pins this plugin's class loader, so without this the plugin
 * could not be unloaded and loaded again (ARCHITECTURE.md, "PF4J with GraalJS").
 */
public class GraalJsPlugin extends Plugin {
    @Override
    public void stop() {
        OpenEngines.closeAll();
    }
}
