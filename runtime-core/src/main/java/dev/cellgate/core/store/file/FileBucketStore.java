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
 * never a mix. With {@code fsync} on, the new file reaches the disk before it is renamed into
 * place, so a killed process or node loses nothing it acknowledged. The rename itself is not
 * forced to disk (the directory is not fsynced): after a power cut the file system may come back
 * without the newest renames (ext4 commits them within its journal interval, 5 s by default), so
 * acknowledged writes of the last seconds can be lost to a power cut.
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

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(key, () -> locks.withLock(key, () -> {
            Path p = pathOf(key);
            if (Files.exists(p)) {
                return new WriteOutcome.Rejected("object exists");
            }
            return replace(p, bytes);
        }));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return write(key, () -> locks.withLock(key, () -> {
            Path p = pathOf(key);
            String current = currentVersion(p, key);
            if (current == null) {
                return new WriteOutcome.Rejected("object does not exist");
            }
            if (!current.equals(version)) {
                return new WriteOutcome.Rejected("version differs");
            }
            return replace(p, bytes);
        }));
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(key, () -> locks.withLock(key, () -> replace(pathOf(key), bytes)));
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

    private WriteOutcome replace(Path target, byte[] bytes) throws IOException {
        String version = newVersion();
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(RESERVED + "tmp-" + newVersion());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(ObjectFile.encode(version, bytes));
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (fsync) {
                    ch.force(true);
                }
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the bucket directory does not support atomic rename: " + e.getMessage(), e);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new WriteOutcome.Written(version);
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

    private CompletableFuture<WriteOutcome> write(String key, StripeLocks.IoAction<WriteOutcome> action) {
        try {
            checkKey(key);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return action.run();
            } catch (IOException e) {
                // The rename may or may not have happened: only a re-read can tell.
                return new WriteOutcome.Ambiguous("I/O error on " + url + " key '" + key + "': " + e.getMessage(), e);
            }
        }, io);
    }
}
