package dev.cellgate.core.plugin;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreProvider;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.store.file.FileBucketStoreProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Opens a bucket by URL scheme: the built-in {@code file} provider, then every plugin's providers. */
public final class BucketStores {
    private final PluginHost plugins;
    private final List<BucketStoreProvider> builtIn = List.of(new FileBucketStoreProvider());

    /** @param plugins the plugin host, or {@code null} for built-in providers only */
    public BucketStores(PluginHost plugins) {
        this.plugins = plugins;
    }

    public BucketStore open(String url, StoreOptions options) {
        BucketUrl parsed = BucketUrl.parse(url);
        for (BucketStoreProvider p : providers()) {
            if (p.schemes().contains(parsed.scheme())) {
                return p.open(parsed, options);
            }
        }
        String where = plugins == null ? "no plugins directory is in use"
                : "plugins directory " + plugins.dir() + " holds " + plugins.jarNames();
        throw new IllegalArgumentException("no bucket store plugin for scheme '" + parsed.scheme() + "' (bucket " + url
                + "); known schemes " + schemes() + "; " + where);
    }

    public Set<String> schemes() {
        Set<String> s = new TreeSet<>();
        providers().forEach(p -> s.addAll(p.schemes()));
        return s;
    }

    private List<BucketStoreProvider> providers() {
        List<BucketStoreProvider> all = new ArrayList<>(builtIn);
        if (plugins != null) {
            all.addAll(plugins.extensions(BucketStoreProvider.class));
        }
        return all;
    }
}
