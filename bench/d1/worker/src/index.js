// bench/d1: one D1 database; each request runs one statement (or one batch) and answers its result.
//   /setup            CREATE TABLE kv
//   /write?k=KEY      upsert, RETURNING the new value (a write: durable before the answer)
//   /read?k=KEY       SELECT by primary key
//   /batch?k=KEY      batch([upsert, select]) in one transaction
//   /hello            no D1 at all: the request's own cost, to subtract
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const k = url.searchParams.get("k") || "0";
    switch (url.pathname) {
      case "/setup":
        await env.DB.exec("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
        return new Response("ok");
      case "/write":
        return new Response(String(await env.DB.prepare(
          "INSERT INTO kv (k, v) VALUES (?1, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1 RETURNING v").bind(k).first("v")));
      case "/read":
        return new Response(String((await env.DB.prepare("SELECT v FROM kv WHERE k = ?1").bind(k).first("v")) ?? 0));
      case "/batch": {
        const [, read] = await env.DB.batch([
          env.DB.prepare("INSERT INTO kv (k, v) VALUES (?1, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1").bind(k),
          env.DB.prepare("SELECT v FROM kv WHERE k = ?1").bind(k),
        ]);
        return new Response(String(read.results[0].v));
      }
      case "/hello":
        return new Response("hello");
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
