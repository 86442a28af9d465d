package dev.cellgate.core.spi.bucket;

import java.util.Map;
import java.util.Optional;

/**
 * Options a node or the deploy tool passes to a store provider besides the URL: the S3 endpoint
 * and region, and anything a plugin documents. Keys are the setting names (e.g. {@code S3_ENDPOINT}).
 */
public record StoreOptions(Map<String, String> values) {
    public StoreOptions {
        values = Map.copyOf(values);
    }

    public static StoreOptions none() {
        return new StoreOptions(Map.of());
    }

    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }
}
