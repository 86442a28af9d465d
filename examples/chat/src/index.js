import { DurableObject } from "cloudflare:workers";
import { PAGE } from "./page.js";

// One room. Members' sockets are hibernatable (ctx.acceptWebSocket): an idle room leaves memory
// while everyone stays connected, and the next message constructs it again. Who a socket belongs
// to travels in its attachment, which survives hibernation.
export class ChatRoom extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, sender TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL,
      UNIQUE (sender, id))`);
    sql.exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
    // Counts constructions (first start, each wake from hibernation, each move to another node).
    this.constructions = sql.exec(
      "INSERT INTO meta VALUES ('constructions', 1) ON CONFLICT(k) DO UPDATE SET v = v + 1 RETURNING v").one().v;
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname.endsWith("/history")) {
      return Response.json(this.ctx.storage.sql.exec("SELECT seq, sender AS \"from\", id, text FROM messages ORDER BY seq").toArray());
    }
    if (url.pathname.endsWith("/stats")) {
      return Response.json({ constructions: this.constructions, sockets: this.ctx.getWebSockets().length });
    }
    if (request.headers.get("Upgrade") !== "websocket") {
      return new Response("expected Upgrade: websocket\n", { status: 426 });
    }
    const user = url.searchParams.get("user") || "anonymous";
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server, ["user:" + user]);
    server.serializeAttachment({ user, joined: Date.now() });
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws, raw) {
    const { user } = ws.deserializeAttachment();
    let m;
    try {
      m = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      ws.send(JSON.stringify({ type: "error", error: "not JSON" }));
      return;
    }
    if (m.type === "whoami") {
      ws.send(JSON.stringify({ type: "me", user, constructions: this.constructions, attachment: ws.deserializeAttachment() }));
      return;
    }
    if (m.type !== "msg" || typeof m.text !== "string") {
      ws.send(JSON.stringify({ type: "error", error: "expected {type:'msg', id, text}" }));
      return;
    }
    const id = String(m.id);
    // Stored before anything is sent: the broadcast and the ack leave only once this is durable.
    // A resend of the same (sender, id) after a reconnect is not stored twice.
    const stored = this.ctx.storage.sql.exec(
      "INSERT INTO messages (sender, id, text, at) VALUES (?, ?, ?, ?) ON CONFLICT (sender, id) DO NOTHING RETURNING seq",
      user, id, m.text, Date.now()).toArray();
    const seq = stored.length ? stored[0].seq
      : this.ctx.storage.sql.exec("SELECT seq FROM messages WHERE sender = ? AND id = ?", user, id).one().seq;
    if (stored.length) {
      const out = JSON.stringify({ type: "msg", seq, from: user, id, text: m.text });
      for (const member of this.ctx.getWebSockets()) {
        try {
          member.send(out);
        } catch {
          // a member closing right now: its close event follows
        }
      }
    }
    ws.send(JSON.stringify({ type: "ack", id, seq }));
  }

  async webSocketClose(ws, code, reason) {
    try {
      ws.close(1000, "bye");
    } catch {
      // already closed
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/") {
      return new Response(PAGE, { headers: { "content-type": "text/html;charset=UTF-8" } });
    }
    const m = /^\/room\/([A-Za-z0-9_-]{1,64})(\/history|\/stats)?$/.exec(url.pathname);
    if (!m) return new Response("try /room/<name>\n", { status: 404 });
    // The Worker forwards the upgrade to the room and returns the room's 101 as it is.
    return env.ROOMS.getByName(m[1]).fetch(request);
  },
};
