package dev.cellgate.core.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.pf4j.DefaultPluginManager;
import org.pf4j.PluginManager;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads PF4J plugins from one directory and keeps watching it: a jar dropped in while the node
 * runs is loaded and started within about a second, so its extensions (a bucket scheme, say)
 * become usable without a restart.
 *
 * <p>A jar still being copied fails to load; it is retried when its size or modification time
 * changes, so a slow copy is picked up once complete and a broken jar is reported once, not on
 * every poll.
 */
public final class PluginHost implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginHost.class);
    static final long POLL_MS = 500;

    private final Path dir;
    private final PluginManager manager;
    private final Map<Path, Seen> seen = new ConcurrentHashMap<>();
    private final List<Consumer<PluginWrapper>> listeners = new CopyOnWriteArrayList<>();
    private volatile Thread watcher;
    private volatile boolean closed;

    public PluginHost(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
        this.manager = new DefaultPluginManager(this.dir);
    }

    public Path dir() {
        return dir;
    }

    /** Loads what the directory holds now, then starts watching it. */
    public void start() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create plugins directory " + dir + ": " + e.getMessage(), e);
        }
        scan();
        Thread t = new Thread(this::watch, "plugin-watcher");
        t.setDaemon(true);
        watcher = t;
        t.start();
    }

    /** Called with each plugin started after {@link #start()} (hot-drops). */
    public void onPluginStarted(Consumer<PluginWrapper> listener) {
        listeners.add(listener);
    }

    /** Loads and starts one jar now (used for plugins a deployment carries). Returns the plugin id. */
    public synchronized String loadNow(Path jar) {
        String id = manager.loadPlugin(jar.toAbsolutePath().normalize());
        PluginState state = manager.startPlugin(id);
        if (state != PluginState.STARTED) {
            throw new IllegalStateException("plugin " + id + " from " + jar + " did not start (state " + state + ")");
        }
        PluginWrapper w = manager.getPlugin(id);
        LOG.atInfo().setMessage("plugin.loaded").addKeyValue("id", id)
                .addKeyValue("version", w.getDescriptor().getVersion()).addKeyValue("path", jar.toString()).log();
        listeners.forEach(l -> l.accept(w));
        return id;
    }

    /** Extensions of {@code type} from every started plugin. */
    public <T> List<T> extensions(Class<T> type) {
        return new ArrayList<>(manager.getExtensions(type));
    }

    /** The jar names in the plugins directory, for error messages. */
    public List<String> jarNames() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(PluginHost::isPluginFile).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Started plugins: id and version. */
    public List<Map<String, String>> describe() {
        List<Map<String, String>> out = new ArrayList<>();
        for (PluginWrapper w : manager.getPlugins()) {
            out.add(Map.of("id", w.getPluginId(), "version", w.getDescriptor().getVersion(),
                    "state", w.getPluginState().toString(), "path", String.valueOf(w.getPluginPath())));
        }
        return out;
    }

    private void watch() {
        while (!closed) {
            try {
                Thread.sleep(POLL_MS);
                scan();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("plugin.scan_failed").addKeyValue("dir", dir.toString())
                        .addKeyValue("error", e.toString()).log();
            }
        }
    }

    private synchronized void scan() {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(PluginHost::isPluginFile).sorted().toList();
        } catch (IOException e) {
            LOG.atWarn().setMessage("plugin.scan_failed").addKeyValue("dir", dir.toString()).addKeyValue("error", e.toString()).log();
            return;
        }
        for (Path f : files) {
            Seen now;
            try {
                now = new Seen(Files.size(f), Files.getLastModifiedTime(f), false);
            } catch (IOException e) {
                continue; // vanished between list and stat
            }
            Seen before = seen.get(f);
            if (before != null && (before.loaded || before.sameFile(now))) {
                continue;
            }
            try {
                loadNow(f);
                seen.put(f, new Seen(now.size, now.modified, true));
            } catch (RuntimeException e) {
                seen.put(f, now);
                LOG.atError().setMessage("plugin.load_failed").addKeyValue("path", f.toString())
                        .addKeyValue("error", String.valueOf(e.getMessage())).log();
            }
        }
    }

    private static boolean isPluginFile(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && (n.endsWith(".jar") || n.endsWith(".zip"));
    }

    @Override
    public void close() {
        closed = true;
        Thread t = watcher;
        if (t != null) {
            t.interrupt();
        }
        manager.stopPlugins();
        manager.unloadPlugins();
    }

    /** What the watcher knew of a file: a changed size or time means "try again". */
    private record Seen(long size, FileTime modified, boolean loaded) {
        boolean sameFile(Seen o) {
            return size == o.size && modified.equals(o.modified);
        }
    }
}
