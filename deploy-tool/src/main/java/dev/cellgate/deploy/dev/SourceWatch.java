package dev.cellgate.deploy.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Has anything under the watched directories changed? A poll of every file's size and modification
 * time (every {@link #POLL_MS}), not a {@link java.nio.file.WatchService}: inotify needs one watch per
 * directory, re-registered as directories come and go, and misses editors that replace a file by
 * renaming; a walk of a project is cheap at this rate. A change is reported once the files have
 * been quiet for {@link #QUIET_MS} (an editor's save, a formatter right after it, a build writing
 * several files: one reload). Directories that are never sources are skipped.
 */
final class SourceWatch {
    static final long POLL_MS = 25;
    static final long QUIET_MS = 30;
    /** Never sources: dev's own state, dependencies, version control, tools' caches. */
    static final Set<String> SKIPPED = Set.of(".cellgate", "node_modules", ".git", ".wrangler", ".idea", ".vscode");

    private final List<Path> roots;
    private Map<Path, Long> seen;

    SourceWatch(List<Path> roots) {
        this.roots = List.copyOf(roots);
        this.seen = snapshot();
    }

    /** Takes the current state as seen: changes are counted from here (after a build that wrote files under the roots). */
    void settle() {
        seen = snapshot();
    }

    /** Blocks until something changed and then stayed quiet; returns the number of files that differ. Interruptible. */
    int awaitChange() throws InterruptedException {
        while (true) {
            Thread.sleep(POLL_MS);
            Map<Path, Long> now = snapshot();
            if (now.equals(seen)) {
                continue;
            }
            Map<Path, Long> last = now;
            while (true) {
                Thread.sleep(QUIET_MS);
                Map<Path, Long> again = snapshot();
                if (again.equals(last)) {
                    break;
                }
                last = again;
            }
            int changed = differing(seen, last);
            seen = last;
            return changed;
        }
    }

    private static int differing(Map<Path, Long> a, Map<Path, Long> b) {
        Set<Path> all = new java.util.HashSet<>(a.keySet());
        all.addAll(b.keySet());
        int n = 0;
        for (Path p : all) {
            n += Objects.equals(a.get(p), b.get(p)) ? 0 : 1;
        }
        return n;
    }

    /** Each file's modification time (ns) and size folded into one number. */
    private Map<Path, Long> snapshot() {
        Map<Path, Long> m = new HashMap<>();
        for (Path root : roots) {
            if (!Files.exists(root)) {
                continue;
            }
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        return !dir.equals(root) && SKIPPED.contains(dir.getFileName().toString())
                                ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        long t = attrs.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
                        m.put(file, t * 31 + attrs.size());
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // deleted while walking: the next poll sees it gone
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + root, e);
            }
        }
        return m;
    }
}
