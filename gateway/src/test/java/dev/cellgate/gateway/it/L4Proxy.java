package dev.cellgate.gateway.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx in stream (L4) mode, round-robin over the nodes' public ports: what a user puts in front
 * of a fleet. A connection refused by a stopped node is retried on the next upstream by nginx;
 * an HTTP 503 from a draining node is passed through (the client retries).
 */
final class L4Proxy implements AutoCloseable {
    private final Process process;
    private final int port;

    private L4Proxy(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static L4Proxy start(Path dir, List<String> upstreams) throws Exception {
        Files.createDirectories(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StringBuilder servers = new StringBuilder();
        for (String u : upstreams) {
            servers.append("    server ").append(u).append(" max_fails=0;\n");
        }
        String conf = """
                load_module /usr/lib/nginx/modules/ngx_stream_module.so;
                worker_processes 1;
                error_log %s/error.log warn;
                pid %s/nginx.pid;
                events { worker_connections 4096; }
                stream {
                  upstream fleet {
                %s  }
                  server {
                    listen 127.0.0.1:%d;
                    proxy_pass fleet;
                    proxy_connect_timeout 500ms;
                    proxy_next_upstream on;
                    proxy_next_upstream_tries 3;
                  }
                }
                """.formatted(dir, dir, servers, port);
        Path c = dir.resolve("nginx.conf");
        Files.writeString(c, conf);
        Process p = new ProcessBuilder("/usr/sbin/nginx", "-p", dir.toString(), "-c", c.toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
        L4Proxy proxy = new L4Proxy(p, port);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return proxy;
            } catch (IOException e) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("nginx exited: " + Files.readString(dir.resolve("nginx.out")));
                }
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("nginx did not listen on " + port);
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    @Override
    public void close() {
        process.destroy();
    }
}
