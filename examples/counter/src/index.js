import { DurableObject } from "cloudflare:workers";

// SQL API: one row per counter, incremented in place.
export class SqlCounter extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)");
  }

  increment(by = 1) {
    const row = this.ctx.storage.sql
      .exec("INSERT INTO counter (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = value + ? RETURNING value", by, by)
      .one();
    return row.value;
  }

  read() {
    const rows = this.ctx.storage.sql.exec("SELECT value FROM counter WHERE id = 1").toArray();
    return rows.length ? rows[0].value : 0;
  }

  async fetch(request) {
    const op = new URL(request.url).searchParams.get("op");
    return new Response(String(op === "get" ? this.read() : this.increment()));
  }
}

// KV API: storage.get/put of one key.
export class KvCounter extends DurableObject {
  async fetch(request) {
    let n = (await this.ctx.storage.get("count")) ?? 0;
    if (new URL(request.url).searchParams.get("op") !== "get") {
      n += 1;
      await this.ctx.storage.put("count", n);
    }
    return new Response(String(n));
  }
}

export default {
  async fetch(request, env) {
    const m = /^\/(sql|kv|rpc)\/([^/]+)$/.exec(new URL(request.url).pathname);
    if (!m) return new Response("try /sql/<name>, /kv/<name> or /rpc/<name>\n", { status: 404 });
    const [, kind, name] = m;
    if (kind === "kv") return env.KV_COUNTER.getByName(name).fetch(request);
    const stub = env.SQL_COUNTER.getByName(name);
    if (kind === "sql") return stub.fetch(request);
    return new Response(String(await stub.increment()));
  },
};
