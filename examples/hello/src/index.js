// A plain module Worker: no Durable Objects, no imports.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/hello") {
      return new Response("hello", { headers: { "content-type": "text/plain" } });
    }
    return Response.json({
      message: env.GREETING,
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    });
  },
};
