package dev.cellgate.core.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Mutual exclusion per key stripe across threads AND processes sharing one bucket directory.
 *
 * <p>An OS file lock ({@code fcntl}) excludes other processes but is held per process: a second
 * thread of the same JVM asking for it gets {@code OverlappingFileLockException}. So each stripe
 * is a JVM-wide {@link ReentrantLock} (shared by every store opened on the same directory) around
 * the OS lock of the stripe's lock file.
 */
final class StripeLocks {
    static final int STRIPES = 64;

    private static final ConcurrentHashMap<Path, Stripe> STRIPES_BY_FILE = new ConcurrentHashMap<>();

    /** No exclusion at all: the deliberately broken variant the race tests must catch. */
    static final StripeLocks NONE = new StripeLocks();

    private final Path lockDir;

    private StripeLocks() {
        this.lockDir = null;
    }

    StripeLocks(Path lockDir) throws IOException {
        this.lockDir = lockDir;
        Files.createDirectories(lockDir);
    }

    /** Runs {@code action} holding the stripe of {@code key}. */
    <T> T withLock(String key, IoAction<T> action) throws IOException {
        if (lockDir == null) {
            return action.run();
        }
        int index = Math.floorMod(key.hashCode(), STRIPES);
        Path file = lockDir.resolve("stripe-" + index + ".lock");
        Stripe stripe = STRIPES_BY_FILE.computeIfAbsent(file, f -> new Stripe());
        stripe.lock.lock();
        try {
            FileChannel channel = stripe.channel(file);
            try (FileLock ignored = lockOs(channel, file)) {
                return action.run();
            }
        } finally {
            stripe.lock.unlock();
        }
    }

    /**
     * Takes the OS lock. Linux's {@code fcntl} deadlock detection counts locks per process, so
     * two processes whose threads each hold one stripe and wait for another can be refused with
     * EDEADLK although no thread waits for itself; we back off briefly and ask again.
     */
    private static FileLock lockOs(FileChannel channel, Path file) throws IOException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return channel.lock();
            } catch (IOException e) {
                String m = String.valueOf(e.getMessage());
                if (!m.contains("deadlock") || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(0, 100_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(900_000));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted waiting for " + file);
                }
            }
        }
    }

    @FunctionalInterface
    interface IoAction<T> {
        T run() throws IOException;
    }

    private static final class Stripe {
        final ReentrantLock lock = new ReentrantLock();
        FileChannel channel;

        /** Opened lazily and kept: opening per operation would cost a syscall pair each time. */
        FileChannel channel(Path file) throws IOException {
            if (channel == null || !channel.isOpen()) {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            }
            return channel;
        }
    }
}
