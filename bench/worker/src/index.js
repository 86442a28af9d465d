// Bench Worker: a stateless route and two Durable Object counters, one per storage API.
// It imports nothing but "cloudflare:workers", so both runtimes load the very same bytes.
//
//   GET /hello                    "hello", no Durable Object
//   GET /counter/<name>           Counter (SQL API): +1, answers the new value
//   GET /kv/<name>                KvCounter (KV API: get then put): +1, answers the new value
//   GET /rpc/<name>               Counter through a JS RPC call on the stub instead of fetch
//   ...?op=get                    read only, no write
//   GET /counter/<name>?pad=N     +1 and (re)write an N-byte payload row (density runs: 1 KB cells)
import { DurableObject } from "cloudflare:workers";

const TEXT = { headers: { "content-type": "text/plain" } };

export class Counter extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS tally (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  }

  // An UPDATE of the one row; the INSERT runs once, on the first increment of a new object.
  increment() {
    if (this.sql.exec("UPDATE tally SET n = n + 1 WHERE k = 0").rowsWritten === 0) {
      this.sql.exec("INSERT INTO tally (k, n) VALUES (0, 1)");
    }
    return this.read();
  }

  read() {
    const rows = this.sql.exec("SELECT n FROM tally WHERE k = 0").toArray();
    return rows.length === 0 ? 0 : rows[0].n;
  }

  pad(bytes) {
    this.sql.exec("CREATE TABLE IF NOT EXISTS payload (k INTEGER PRIMARY KEY, v TEXT NOT NULL)");
    this.sql.exec("INSERT OR REPLACE INTO payload (k, v) VALUES (0, ?)", "x".repeat(bytes));
  }

  async fetch(request) {
    const q = new URL(request.url).searchParams;
    if (q.get("op") === "get") return new Response(String(this.read()), TEXT);
    const pad = q.get("pad");
    if (pad !== null) this.pad(Number(pad));
    return new Response(String(this.increment()), TEXT);
  }
}

export class KvCounter extends DurableObject {
  async fetch(request) {
    const readOnly = new URL(request.url).searchParams.get("op") === "get";
    const n = ((await this.ctx.storage.get("n")) ?? 0) + (readOnly ? 0 : 1);
    if (!readOnly) await this.ctx.storage.put("n", n);
    return new Response(String(n), TEXT);
  }
}

const ROUTE = /^\/(counter|kv|rpc)\/([^/]+)$/;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/hello") return new Response("hello", TEXT);
    const m = ROUTE.exec(url.pathname);
    if (m === null) return new Response("not found", { status: 404 });
    const [, kind, name] = m;
    const ns = kind === "kv" ? env.KV_COUNTER : env.COUNTER;
    const stub = ns.get(ns.idFromName(decodeURIComponent(name)));
    if (kind !== "rpc") return stub.fetch(request);
    const n = url.searchParams.get("op") === "get" ? await stub.read() : await stub.increment();
    return new Response(String(n), TEXT);
  },
};
