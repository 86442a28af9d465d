package dev.cellgate.core.store.file;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded bucket: a local directory, one file per object.
 *
 * <p>Conditional writes are atomic across threads and processes on one host: the version check
 * and the replacement happen under the key's stripe lock ({@link StripeLocks}), and the
 * replacement itself is a rename, so readers (who take no lock) see the old or the new object,
 * never a mix. The new object is written to a temporary file (and, with {@code fsync} on, forced
 * to disk) BEFORE the lock is taken: only the check and the rename are serialised, so writes to
 * keys that share a stripe do not queue behind each other's disk flushes. With {@code fsync} on,
 * the directory is forced after the rename too, so an acknowledged write survives a power cut,
 * not only a killed process.
 */
public final class FileBucketStore implements BucketStore {
    static final String RESERVED = ".cg-";
    private static final int MAX_KEY = 1024;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger THREADS = new AtomicInteger();
    /**
     * Blocking file calls in flight at once. Every gated write is an fsync, and with many cells
     * each flush is its own: with 4 threads the {@code own.json} reads queued behind the fsyncs,
     * and 16 gave counter-many 1.29x and kv-many 1.33x the throughput at the same p99 (bench run
     * 20261130-213454). Beyond that the disk's own fsync queue saturates (32 threads measured
     * slower than 16).
     */
    private static final int IO_THREADS = 16;

    private final String url;
    private final Path root;
    private final boolean fsync;
    private final StripeLocks locks;
    private final ExecutorService io;

    public FileBucketStore(String url, Path root, boolean fsync) {
        this(url, root, fsync, true);
    }

    /**
     * @param locking {@code false} only for the negative control in the tests: without the stripe
     *                lock, check-then-rename races and the contract's race tests must fail
     */
    FileBucketStore(String url, Path root, boolean fsync, boolean locking) {
        this.url = url;
        this.root = root.toAbsolutePath().normalize();
        this.fsync = fsync;
        try {
            Files.createDirectories(this.root);
            this.locks = locking ? new StripeLocks(this.root.resolve(RESERVED + "locks")) : StripeLocks.NONE;
        } catch (IOException e) {
            throw new BucketException("cannot open bucket " + url + ": " + e, e);
        }
        this.io = Executors.newFixedThreadPool(IO_THREADS, r -> {
            Thread t = new Thread(r, "file-bucket-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public Path root() {
        return root;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return read(key, () -> {
            Path p = pathOf(key);
            byte[] raw;
            try {
                raw = Files.readAllBytes(p);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            ObjectFile.Decoded d = decode(raw, key);
            return Optional.of(new StoredObject(d.bytes(), d.version()));
        });
    }

    /** The object's size (its bytes, without the file's version header) and its file's modification time. */
    @Override
    public CompletableFuture<Optional<dev.cellgate.core.spi.bucket.ObjectInfo>> info(String key) {
        return read(key, () -> {
            Path p = pathOf(key);
            byte[] raw;
            long modified;
            try {
                raw = Files.readAllBytes(p);
                modified = Files.getLastModifiedTime(p).toMillis();
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            return Optional.of(new dev.cellgate.core.spi.bucket.ObjectInfo(decode(raw, key).bytes().length, modified));
        });
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(key, bytes, p -> Files.exists(p) ? "object exists" : null);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return write(key, bytes, p -> {
            String current = currentVersion(p, key);
            if (current == null) {
                return "object does not exist";
            }
            return current.equals(version) ? null : "version differs";
        });
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(key, bytes, p -> null);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return read(key, () -> {
            locks.withLock(key, () -> Files.deleteIfExists(pathOf(key)));
            return null;
        });
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        if (limit < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("list limit must be positive"));
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return listNow(prefix, cursor, limit);
            } catch (IOException e) {
                throw new BucketException("list '" + prefix + "' in " + url + " failed: " + e, e);
            }
        }, io);
    }

    @Override
    public void close() {
        io.shutdown();
    }

    // ------------------------------------------------------------------ internals

    /** Why a conditional write must not happen ({@code null}: go ahead); runs under the key's lock. */
    @FunctionalInterface
    private interface Condition {
        String refusal(Path target) throws IOException;
    }

    /**
     * Stages the object beside its target (written and, with fsync on, forced), then checks the
     * condition and renames under the key's lock, then forces the directory so the rename itself
     * survives a power cut.
     */
    private WriteOutcome replace(String key, byte[] bytes, Condition condition) throws IOException {
        Path target = pathOf(key);
        String version = newVersion();
        Path tmp = stage(target, ObjectFile.encode(version, bytes));
        boolean renamed = false;
        try {
            String refusal = locks.withLock(key, () -> {
                String why = condition.refusal(target);
                if (why == null) {
                    try {
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        throw new IOException("the bucket directory does not support atomic rename: " + e.getMessage(), e);
                    }
                }
                return why;
            });
            if (refusal != null) {
                return new WriteOutcome.Rejected(refusal);
            }
            renamed = true;
            if (fsync) {
                forceDirectory(target.getParent());
            }
            // A local directory's clock is this host's: what a node compares its own clock with (SPEC §20).
            return WriteOutcome.Written.at(version, System.currentTimeMillis());
        } finally {
            if (!renamed) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** A new temporary file in the target's directory holding {@code content}, on disk if fsync is on. */
    private Path stage(Path target, byte[] content) throws IOException {
        Path tmp = target.resolveSibling(RESERVED + "tmp-" + newVersion());
        try (FileChannel ch = createNew(tmp)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            if (fsync) {
                ch.force(true);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        return tmp;
    }

    private static FileChannel createNew(Path tmp) throws IOException {
        try {
            return FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) { // first object under this prefix (no exception per write otherwise)
            Files.createDirectories(tmp.getParent());
            return FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
    }

    /** Makes the directory's entries (the rename just done) durable; Linux and macOS allow this. */
    private static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private String currentVersion(Path p, String key) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(p)) {
            head = in.readNBytes(ObjectFile.MAX_HEADER);
        } catch (NoSuchFileException e) {
            return null;
        }
        return decode(head, key).version();
    }

    private ObjectFile.Decoded decode(byte[] raw, String key) throws IOException {
        try {
            return ObjectFile.decode(raw, key);
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage() + " in " + url);
        }
    }

    private ListPage listNow(String prefix, String cursor, int limit) throws IOException {
        int slash = prefix.lastIndexOf('/');
        Path base = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
        if (!base.normalize().startsWith(root) || !Files.isDirectory(base)) {
            return new ListPage(List.of(), null);
        }
        List<String> keys = new ArrayList<>();
        Files.walkFileTree(base, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                Path name = dir.getFileName();
                if (!dir.equals(base) && name != null && name.toString().startsWith(RESERVED)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (!file.getFileName().toString().startsWith(RESERVED)) {
                    String key = root.relativize(file).toString().replace('\\', '/');
                    if (key.startsWith(prefix) && (cursor == null || key.compareTo(cursor) > 0)) {
                        keys.add(key);
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                if (exc instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE; // deleted while we walked
                }
                throw exc;
            }
        });
        keys.sort(null);
        if (keys.size() <= limit) {
            return new ListPage(keys, null);
        }
        List<String> page = keys.subList(0, limit);
        return new ListPage(page, page.get(page.size() - 1));
    }

    private Path pathOf(String key) {
        checkKey(key);
        return root.resolve(key);
    }

    static void checkKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
            throw new IllegalArgumentException("invalid bucket key '" + key + "': empty or longer than " + MAX_KEY);
        }
        if (key.indexOf('\0') >= 0 || key.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("invalid bucket key '" + key + "': contains NUL or backslash");
        }
        for (String seg : key.split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..") || seg.startsWith(RESERVED)) {
                throw new IllegalArgumentException("invalid bucket key '" + key + "': empty, '.', '..' or reserved ("
                        + RESERVED + ") path segment");
            }
        }
    }

    private static String newVersion() {
        byte[] b = new byte[12];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private <T> CompletableFuture<T> read(String key, StripeLocks.IoAction<T> action) {
        try {
            checkKey(key);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return action.run();
            } catch (IOException e) {
                throw new BucketException("bucket " + url + " key '" + key + "': " + e, e);
            }
        }, io);
    }

    private CompletableFuture<WriteOutcome> write(String key, byte[] bytes, Condition condition) {
        try {
            checkKey(key);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return replace(key, bytes, condition);
            } catch (IOException e) {
                // The rename may or may not have happened (or may not be durable): only a re-read can tell.
                return new WriteOutcome.Ambiguous("I/O error on " + url + " key '" + key + "': " + e.getMessage(), e);
            }
        }, io);
    }
}
