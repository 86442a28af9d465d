package dev.cellgate.core.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a real PF4J plugin jar at test time: compiles a bucket store provider for a new URL
 * scheme (with PF4J's annotation processor writing {@code extensions.idx}) and packs it with a
 * plugin manifest. The store behind the scheme is a directory under {@code java.io.tmpdir}.
 */
public final class TestPluginBuilder {
    private TestPluginBuilder() {
    }

    /** Builds {@code <out>/<scheme>-plugin.jar} serving {@code <scheme>://<name>} buckets. */
    public static Path buildStorePlugin(Path work, String scheme, String classpath) throws IOException {
        String pkg = "testplugin." + scheme.replaceAll("[^a-z0-9]", "");
        String provider = """
                package %s;
                import dev.cellgate.core.spi.bucket.*;
                import java.nio.file.Path;
                import java.util.Set;
                @org.pf4j.Extension
                public class TestStoreProvider implements BucketStoreProvider {
                    public Set<String> schemes() { return Set.of("%s"); }
                    public BucketStore open(BucketUrl url, StoreOptions options) {
                        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "cellgate-test-plugin-" + url.bucket());
                        return new dev.cellgate.core.store.file.FileBucketStore(url.raw(), dir, false);
                    }
                }
                """.formatted(pkg, scheme);
        return build(work, scheme, classpath, pkg, provider);
    }

    /**
     * A {@code <scheme>:///abs/dir} store over a directory whose writes under {@code cells/…/wal/}
     * land only after {@code delayMs}: replication uploads in flight for a while, as on a slow
     * network. Used to show what acknowledging before durability loses in a crash.
     */
    public static Path buildSlowStorePlugin(Path work, String scheme, String classpath, long delayMs) throws IOException {
        String pkg = "testplugin." + scheme.replaceAll("[^a-z0-9]", "");
        String provider = """
                package %s;
                import dev.cellgate.core.spi.bucket.*;
                import java.nio.file.Path;
                import java.util.*;
                import java.util.concurrent.*;
                @org.pf4j.Extension
                public class TestStoreProvider implements BucketStoreProvider {
                    public Set<String> schemes() { return Set.of("%s"); }
                    public BucketStore open(BucketUrl url, StoreOptions options) {
                        Path dir = Path.of("/" + url.bucket() + (url.prefix().isEmpty() ? "" : "/" + url.prefix()));
                        BucketStore d = new dev.cellgate.core.store.file.FileBucketStore(url.raw(), dir, false);
                        Executor later = CompletableFuture.delayedExecutor(%d, TimeUnit.MILLISECONDS);
                        return new BucketStore() {
                            CompletableFuture<WriteOutcome> slow(String key, java.util.function.Supplier<CompletableFuture<WriteOutcome>> w) {
                                if (!key.contains("/wal/")) return w.get();
                                return CompletableFuture.supplyAsync(() -> null, later).thenCompose(x -> w.get());
                            }
                            public String url() { return d.url(); }
                            public CompletableFuture<Optional<StoredObject>> get(String k) { return d.get(k); }
                            public CompletableFuture<WriteOutcome> putIfAbsent(String k, byte[] b) { return slow(k, () -> d.putIfAbsent(k, b)); }
                            public CompletableFuture<WriteOutcome> putIfVersion(String k, byte[] b, String v) { return slow(k, () -> d.putIfVersion(k, b, v)); }
                            public CompletableFuture<WriteOutcome> put(String k, byte[] b) { return slow(k, () -> d.put(k, b)); }
                            public CompletableFuture<ListPage> list(String p, String c, int l) { return d.list(p, c, l); }
                            public CompletableFuture<Void> delete(String k) { return d.delete(k); }
                            public void close() { d.close(); }
                        };
                    }
                }
                """.formatted(pkg, scheme, delayMs);
        return build(work, scheme, classpath, pkg, provider);
    }

    private static Path build(Path work, String scheme, String classpath, String pkg, String provider) throws IOException {
        Path src = work.resolve("src/" + pkg.replace('.', '/'));
        Files.createDirectories(src);
        Files.writeString(src.resolve("TestStorePlugin.java"), """
                package %s;
                public class TestStorePlugin extends org.pf4j.Plugin {
                }
                """.formatted(pkg));
        Files.writeString(src.resolve("TestStoreProvider.java"), provider);
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        List<String> sources;
        try (Stream<Path> s = Files.walk(work.resolve("src"))) {
            sources = s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
        }
        List<String> args = new java.util.ArrayList<>(List.of("--release", "21", "-proc:full",
                "-classpath", classpath, "-processorpath", classpath, "-d", classes.toString()));
        args.addAll(sources);
        boolean ok = javac.run(null, errors, errors, args.toArray(String[]::new)) == 0;
        if (!ok) {
            throw new IllegalStateException("test plugin did not compile: " + errors);
        }
        if (!Files.exists(classes.resolve("META-INF/extensions.idx"))) {
            throw new IllegalStateException("PF4J's annotation processor wrote no extensions.idx");
        }
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Plugin-Id", "test-store-" + scheme);
        a.putValue("Plugin-Version", "1.0.0");
        a.putValue("Plugin-Class", pkg + ".TestStorePlugin");
        a.putValue("Plugin-Provider", "cellgate tests");
        Path jar = work.resolve(scheme + "-plugin.jar");
        try (OutputStream fo = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(fo, mf);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }
}
