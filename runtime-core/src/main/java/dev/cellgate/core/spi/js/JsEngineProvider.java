package dev.cellgate.core.spi.js;

import org.pf4j.ExtensionPoint;

/** Extension point for the JavaScript engine that runs Workers and Durable Object classes. */
public interface JsEngineProvider extends ExtensionPoint {

    /** A short name for logs and {@code CELLD_JS_ENGINE} (e.g. {@code graal}). */
    String name();

    /** Creates the process-wide engine. Called once per node start. */
    JsEngine create(JsEngineConfig config);
}
