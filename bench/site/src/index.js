// Bench Worker of the asset and KV-binding scenarios. The files under public/ never reach it:
// they are answered by the assets in front of it (cellgate's node, miniflare's router and asset
// Workers).
//
//   GET /hello          "hello" (the harness's readiness probe)
//   GET /kv/<key>       env.KV.get(key): the value, or 404 when the key is missing
//   PUT /kv/<key>       env.KV.put(key, body): 204 once the put has resolved (seeding)
const TEXT = { headers: { "content-type": "text/plain" } };
const KV_ROUTE = /^\/kv\/([^/]+)$/;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/hello") return new Response("hello", TEXT);
    const m = KV_ROUTE.exec(url.pathname);
    if (m === null) return new Response("not found", { status: 404 });
    const key = decodeURIComponent(m[1]);
    if (request.method === "PUT") {
      await env.KV.put(key, await request.text());
      return new Response(null, { status: 204 });
    }
    const value = await env.KV.get(key);
    return value === null ? new Response("no such key", { status: 404 }) : new Response(value, TEXT);
  },
};
