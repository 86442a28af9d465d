package dev.cellgate.deploy.push;

import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.util.Map;

/** What a push uploads: the validated config and the module sources by path (main first). */
public record Bundle(WranglerConfig config, String name, String main, Map<String, byte[]> modules) {
}
