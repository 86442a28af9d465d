// bench/runaway Worker: the traffic measured, and the runaway beside it.
//
//   GET /counter/<name>       Counter <name>: +1, answers the new value (the measured traffic)
//   GET /hello                "hello", stateless (measured too)
//   GET /spin/<name>          Counter <name> runs while(true){} until the CPU budget stops it
//   GET /spin                 the same in a stateless handler
import { DurableObject } from "cloudflare:workers";

const TEXT = { headers: { "content-type": "text/plain" } };

function spin() {
  for (;;) {}
}

export class Counter extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS tally (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  }

  async fetch(request) {
    if (new URL(request.url).pathname.startsWith("/spin/")) spin();
    if (this.sql.exec("UPDATE tally SET n = n + 1 WHERE k = 0").rowsWritten === 0) {
      this.sql.exec("INSERT INTO tally (k, n) VALUES (0, 1)");
    }
    const n = this.sql.exec("SELECT n FROM tally WHERE k = 0").one().n;
    return new Response(String(n), TEXT);
  }
}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === "/hello") return new Response("hello", TEXT);
    if (path === "/spin") spin();
    const m = /^\/(counter|spin)\/([^/]+)$/.exec(path);
    if (m === null) return new Response("not found", { status: 404 });
    return env.COUNTER.get(env.COUNTER.idFromName(m[2])).fetch(request);
  },
};
