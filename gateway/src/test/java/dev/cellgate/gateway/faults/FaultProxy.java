package dev.cellgate.gateway.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP/1.1 proxy in front of a real S3-compatible server that injects faults: latency,
 * throttling (503 SlowDown, 429), connection resets, answers dropped after the write was applied,
 * and a cut-off. A node points {@code S3_ENDPOINT} at {@link #endpoint()}; requests are relayed
 * byte for byte (their signatures stay valid). One proxy per node gives per-node knobs and
 * per-node request rates; the fleet's proxies share one {@link OwnershipWitness}.
 *
 * <p>Each client connection gets its own thread (a virtual thread) and its own upstream
 * connection, so a held or reset connection affects exactly the requests it carried.
 */
public final class FaultProxy implements AutoCloseable {
    private final String name;
    private final InetSocketAddress upstream;
    private final FaultPlan plan;
    private final ProxyStats stats = new ProxyStats();
    private final OwnershipWitness witness;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Writer faultLog;
    private volatile boolean closed;

    private FaultProxy(String name, InetSocketAddress upstream, FaultPlan plan, OwnershipWitness witness, ServerSocket server,
                       Writer faultLog) {
        this.name = name;
        this.upstream = upstream;
        this.plan = plan;
        this.witness = witness;
        this.server = server;
        this.faultLog = faultLog;
    }

    /**
     * Listens on an ephemeral loopback port and relays to {@code upstream} (http://host:port).
     * Every injected fault is written as one line to {@code faultLog} (created or appended).
     */
    public static FaultProxy start(String name, URI upstream, FaultPlan plan, OwnershipWitness witness, Path faultLog)
            throws IOException {
        if (!"http".equals(upstream.getScheme()) || upstream.getHost() == null || upstream.getPort() < 0) {
            throw new IllegalArgumentException("fault proxy " + name + ": upstream must be http://host:port, got " + upstream);
        }
        Files.createDirectories(faultLog.toAbsolutePath().getParent());
        Writer log = Files.newBufferedWriter(faultLog, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ServerSocket s = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        FaultProxy p = new FaultProxy(name, new InetSocketAddress(upstream.getHost(), upstream.getPort()), plan, witness, s, log);
        Thread acceptor = Thread.ofPlatform().daemon().name("fault-proxy-" + name).start(p::acceptLoop);
        acceptor.setUncaughtExceptionHandler((t, e) -> e.printStackTrace());
        return p;
    }

    /** What a node sets as {@code S3_ENDPOINT}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    public String name() {
        return name;
    }

    public FaultPlan plan() {
        return plan;
    }

    public ProxyStats stats() {
        return stats;
    }

    OwnershipWitness witness() {
        return witness;
    }

    InetSocketAddress upstream() {
        return upstream;
    }

    boolean closed() {
        return closed;
    }

    void track(Socket s, boolean add) {
        if (add) {
            open.add(s);
        } else {
            open.remove(s);
        }
    }

    void logFault(S3Call call, FaultPlan.Decision d, String detail) {
        synchronized (faultLog) {
            try {
                faultLog.write(System.currentTimeMillis() + " " + name + " " + d.action() + " (" + d.rule() + ") " + call
                        + (detail.isEmpty() ? "" : " " + detail) + "\n");
                faultLog.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                throw new UncheckedIOException("fault proxy " + name + " stopped accepting", e);
            }
            threads.execute(new ProxyConnection(this, client));
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : open) {
            ProxyConnection.reset(s);
        }
        threads.shutdownNow();
        synchronized (faultLog) {
            try {
                faultLog.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
