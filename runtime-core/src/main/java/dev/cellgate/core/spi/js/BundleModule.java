package dev.cellgate.core.spi.js;

import java.nio.charset.StandardCharsets;

/** One file of a deployment: how it loads and its bytes (never modified; engines copy what they hand out). */
public record BundleModule(ModuleType type, byte[] bytes) {
    public BundleModule {
        if (type == null || bytes == null) {
            throw new IllegalArgumentException("a bundle module needs a type and bytes");
        }
    }

    public static BundleModule esModule(String source) {
        return new BundleModule(ModuleType.ES_MODULE, source.getBytes(StandardCharsets.UTF_8));
    }

    /** The content as UTF-8 text (for the text types). */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
