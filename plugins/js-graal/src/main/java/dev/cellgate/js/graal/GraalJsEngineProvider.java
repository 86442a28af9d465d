package dev.cellgate.js.graal;

import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.JsEngineProvider;
import org.pf4j.Extension;

/** The {@code graal} JavaScript engine: Workers and Durable Objects on GraalJS. */
@Extension
public class GraalJsEngineProvider implements JsEngineProvider {
    public static final String NAME = "graal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public JsEngine create(JsEngineConfig config) {
        return new GraalJsEngine(config, JsLimits.from(config));
    }
}
