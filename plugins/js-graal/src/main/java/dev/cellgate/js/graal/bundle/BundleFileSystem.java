package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.logic.NodeCompat;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.Set;
import org.graalvm.polyglot.io.FileSystem;

/**
 * The only file system a Worker's context sees: the bundle's modules, read-only, under
 * {@code /bundle/} (modules other than ES modules as ES module facades, {@link BundleModules}),
 * plus our built-in modules under {@code /__cellgate/} ({@code cloudflare:workers} and the
 * {@code node:} modules the Worker's compatibility gives it, {@link BuiltinModules}). GraalJS
 * resolves ES module imports through it, which is how relative imports between bundle modules,
 * {@code import … from "cloudflare:workers"} and {@code import … from "node:buffer"} work. No host
 * file is reachable.
 */
public final class BundleFileSystem implements FileSystem {
    static final String BUNDLE_ROOT = "/bundle/";
    static final String BUILTIN_ROOT = "/__cellgate/";
    static final String UNSUPPORTED_ROOT = "/__cellgate/unsupported/";

    private final Map<String, byte[]> files;
    private final BundleModules modules;
    private final NodeCompat node;
    private final Set<String> read = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param files   ES modules and built-in modules by path
     * @param modules the bundle's other modules, each served as an ES module facade ({@link BundleModules#esModuleFacade})
     * @param node    the Worker's Node.js compatibility, which decides what {@code node:} specifiers resolve to
     */
    BundleFileSystem(Map<String, byte[]> files, BundleModules modules, NodeCompat node) {
        this.files = files;
        this.modules = modules;
        this.node = node;
    }

    BundleModules modules() {
        return modules;
    }

    /**
     * Whether contexts of this bundle track async context ({@code js.async-context}) for
     * AsyncLocalStorage: nodejs_compat and nodejs_als Workers only, so no other context pays for it.
     */
    public boolean asyncContext() {
        return node.asyncLocalStorage() && !NodeModulesConfig.naiveAsyncContextForNegativeControl;
    }

    /** Whether a context has read the file at {@code path} (a module it imported, hence parsed). */
    boolean wasRead(String path) {
        return read.contains(path);
    }

    /** Where the bundle module {@code modulePath} (a key of {@code ScriptBundle.modules}) lives. */
    static String bundlePath(String modulePath) {
        String p = modulePath;
        while (p.startsWith("./") || p.startsWith("/")) {
            p = p.startsWith("./") ? p.substring(2) : p.substring(1);
        }
        return Paths.get(BUNDLE_ROOT + p).normalize().toString();
    }

    @Override
    public Path parsePath(URI uri) {
        String spec = uri.toString();
        String builtin = BuiltinModules.pathOf(spec, node);
        if (builtin != null) {
            return Paths.get(builtin);
        }
        if ("file".equals(uri.getScheme())) {
            return Paths.get(uri.getPath());
        }
        // An import of a module we do not provide (node:fs, cloudflare:sockets…) loads a module
        // that throws a TypeError naming it, rather than a bare "cannot find module".
        return Paths.get(UNSUPPORTED_ROOT + URLEncoding.encode(spec) + ".js");
    }

    @Override
    public Path parsePath(String path) {
        String builtin = BuiltinModules.pathOf(path, node);
        return builtin != null ? Paths.get(builtin) : Paths.get(path);
    }

    @Override
    public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... options) throws IOException {
        if (modes.contains(AccessMode.WRITE)) {
            throw new ReadOnlyFileSystemException();
        }
        content(path);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void delete(Path path) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        byte[] c = content(path);
        read.add(toRealPath(path).toString());
        return new ReadOnlyChannel(c);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
        throw new IOException("a Worker bundle cannot be listed: " + dir);
    }

    /**
     * Everything served is an ES module: CommonJS, Text, Data and CompiledWasm modules are served as
     * facades ({@link BundleModules}), so GraalJS must not take a {@code .wasm} file for its own
     * WebAssembly integration, nor guess any other type from a file name.
     */
    @Override
    public String getMimeType(Path path) {
        return GraalLoadedScript.MODULE_MIME;
    }

    @Override
    public Path toAbsolutePath(Path path) {
        return path.isAbsolute() ? path : Paths.get(BUNDLE_ROOT).resolve(path);
    }

    /**
     * Normalized, without Wrangler's {@code ?module} suffix: Wrangler rewrites {@code import m from
     * "./x.wasm?module"} to the module's name when it bundles; esbuild's copy loader keeps the suffix.
     */
    @Override
    public Path toRealPath(Path path, LinkOption... options) {
        Path p = toAbsolutePath(path).normalize();
        String s = p.toString();
        return s.endsWith("?module") ? Paths.get(s.substring(0, s.length() - "?module".length())) : p;
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        byte[] c = content(path);
        return Map.of("isRegularFile", true, "isDirectory", false, "isSymbolicLink", false, "isOther", false,
                "size", (long) c.length);
    }

    private byte[] content(Path path) throws IOException {
        String key = toRealPath(path).toString();
        byte[] c = files.get(key);
        if (c != null) {
            return c;
        }
        byte[] facade = modules.esModuleFacade(key);
        if (facade != null) {
            return facade;
        }
        String refusal = BuiltinModules.refusal(key);
        if (refusal != null) {
            throw new IOException(refusal);
        }
        String generated = BuiltinModules.generatedSource(key);
        if (generated != null) {
            return generated.getBytes(StandardCharsets.UTF_8);
        }
        if (key.startsWith(BUNDLE_ROOT)) {
            // workerd's error for an import of a module the bundle lacks (its path without the leading slash).
            return ("throw new Error(" + quote("No such module \"" + key.substring(BUNDLE_ROOT.length()) + "\".")
                    + ");\nexport default undefined;").getBytes(StandardCharsets.UTF_8);
        }
        if (key.startsWith(UNSUPPORTED_ROOT)) {
            // Failing the read (not a module that throws) names the module even to an import of
            // named exports, which would otherwise fail to link first with a bare SyntaxError.
            String spec = URLEncoding.decode(key.substring(UNSUPPORTED_ROOT.length(), key.length() - 3));
            throw new IOException("module '" + spec + "' is not supported by cellgate");
        }
        throw new NoSuchFileException(key);
    }

    static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** A read-only view of one module's bytes. */
    private static final class ReadOnlyChannel implements SeekableByteChannel {
        private final byte[] data;
        private int position;
        private boolean open = true;

        ReadOnlyChannel(byte[] data) {
            this.data = data;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= data.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), data.length - position);
            dst.put(data, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new ReadOnlyFileSystemException();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            position = (int) Math.min(newPosition, data.length);
            return this;
        }

        @Override
        public long size() {
            return data.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new ReadOnlyFileSystemException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
