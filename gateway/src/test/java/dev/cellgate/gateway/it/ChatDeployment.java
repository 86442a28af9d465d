package dev.cellgate.gateway.it;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Publishes {@code examples/chat} (its files as they are in the repository) to a fleet's bucket,
 * plus a test-only module with a Durable Object that exercises close codes through tunnels.
 */
final class ChatDeployment {
    static final Path EXAMPLE = locate();

    /** Echoes, and closes with the code and reason a client asks for; records what closes it sees. */
    static final String PROBE = """
            import { DurableObject } from "cloudflare:workers";
            export class Probe extends DurableObject {
              async fetch(request) {
                const url = new URL(request.url);
                if (url.pathname.endsWith("/closes")) {
                  return Response.json(this.ctx.storage.sql.exec("SELECT code, reason, clean FROM closes ORDER BY n").toArray());
                }
                if (request.headers.get("Upgrade") !== "websocket") return new Response("expected a WebSocket", { status: 426 });
                this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS closes (n INTEGER PRIMARY KEY AUTOINCREMENT, code, reason, clean)");
                const [client, server] = Object.values(new WebSocketPair());
                this.ctx.acceptWebSocket(server);
                return new Response(null, { status: 101, webSocket: client });
              }
              webSocketMessage(ws, msg) {
                if (typeof msg !== "string") { ws.send(msg); return; }
                const m = /^close (\\d+) (.*)$/.exec(msg);
                if (m) { ws.close(Number(m[1]), m[2]); return; }
                ws.send("echo " + msg);
              }
              webSocketClose(ws, code, reason, wasClean) {
                this.ctx.storage.sql.exec("INSERT INTO closes (code, reason, clean) VALUES (?, ?, ?)", code, reason, wasClean ? 1 : 0);
              }
            }
            """;

    private ChatDeployment() {
    }

    /** The chat example with the probe class exported too, as deployment {@code chat}. */
    static String publish(BucketStore bucket) {
        Map<String, String> modules = new HashMap<>();
        try {
            modules.put("src/chat.js", Files.readString(EXAMPLE.resolve("src/index.js")));
            modules.put("src/page.js", Files.readString(EXAMPLE.resolve("src/page.js")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        modules.put("src/probe.js", PROBE);
        modules.put("src/index.js", """
                import chat from "./chat.js";
                export { ChatRoom } from "./chat.js";
                export { Probe } from "./probe.js";
                export default {
                  fetch(request, env) {
                    const m = /^\\/probe\\/([^/]+)(\\/closes)?$/.exec(new URL(request.url).pathname);
                    if (m) return env.PROBES.getByName(m[1]).fetch(request);
                    return chat.fetch(request, env);
                  },
                };
                """);
        return TestDeployments.publish(bucket, "chat", modules, "src/index.js", Map.of("ROOMS", "ChatRoom", "PROBES", "Probe"), Map.of());
    }

    private static Path locate() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("examples/chat"))) {
                return p.resolve("examples/chat");
            }
        }
        throw new IllegalStateException("examples/chat not found above " + Path.of("").toAbsolutePath());
    }
}
