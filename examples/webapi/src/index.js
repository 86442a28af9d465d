// Web APIs tour: each path shows one API and answers JSON (or a stream).
//   /                 index of the routes
//   /echo             the request as the Worker sees it (method, url, headers, body)
//   /url?u=…          URL parsing and URLSearchParams
//   /crypto?text=…    SHA-256 digest, HMAC sign/verify, random values, UUID
//   /encoding?text=…  TextEncoder/TextDecoder, atob/btoa
//   /clone            structuredClone of rich values
//   /stream?n=…       a streamed response, one chunk every 10 ms
//   /upper            streams the request body back upper-cased through a TransformStream
//   /timers           setTimeout, setInterval, queueMicrotask and AbortSignal.timeout together
//   /fetch?url=…      outbound fetch with a timeout (AbortSignal.timeout)
import { hex, sleep } from './util.js';

const routes = {
  '/': () => Response.json({ routes: Object.keys(routes) }),

  '/echo': async (req) => Response.json({
    method: req.method,
    url: req.url,
    headers: Object.fromEntries(req.headers),
    body: req.body ? await req.text() : null,
  }),

  '/url': (req) => {
    const u = new URL(new URL(req.url).searchParams.get('u') || 'https://user@example.com:8080/a/../b?x=1&y=2#top');
    return Response.json({
      href: u.href, origin: u.origin, host: u.host, pathname: u.pathname, hash: u.hash,
      params: [...u.searchParams], sorted: (u.searchParams.sort(), u.searchParams.toString()),
    });
  },

  '/crypto': async (req) => {
    const text = new URL(req.url).searchParams.get('text') || 'cellgate';
    const data = new TextEncoder().encode(text);
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const signature = await crypto.subtle.sign('HMAC', key, data);
    return Response.json({
      sha256: hex(await crypto.subtle.digest('SHA-256', data)),
      hmac: hex(signature),
      verified: await crypto.subtle.verify('HMAC', key, signature, data),
      random: hex(crypto.getRandomValues(new Uint8Array(8))),
      uuid: crypto.randomUUID(),
    });
  },

  '/encoding': (req) => {
    const text = new URL(req.url).searchParams.get('text') || 'héllo';
    const bytes = new TextEncoder().encode(text);
    return Response.json({ bytes: [...bytes], decoded: new TextDecoder().decode(bytes), base64: btoa(String.fromCharCode(...bytes)) });
  },

  '/clone': () => {
    const value = { when: new Date(0), tags: new Set(['a', 'b']), map: new Map([['k', 1]]), big: 2n ** 70n, error: new RangeError('kept') };
    const c = structuredClone(value);
    return Response.json({ when: c.when.toISOString(), tags: [...c.tags], map: [...c.map], big: String(c.big), error: [c.error.name, c.error.message] });
  },

  '/stream': (req) => {
    const n = Number(new URL(req.url).searchParams.get('n') || 5);
    let i = 0;
    const encoder = new TextEncoder();
    return new Response(new ReadableStream({
      async pull(controller) {
        if (i >= n) { controller.close(); return; }
        await sleep(10);
        controller.enqueue(encoder.encode(`chunk ${i++}\n`));
      },
    }), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  },

  '/upper': (req) => {
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const upper = new TransformStream({
      transform(chunk, controller) { controller.enqueue(encoder.encode(decoder.decode(chunk, { stream: true }).toUpperCase())); },
    });
    return new Response(req.body ? req.body.pipeThrough(upper) : 'send a body', { headers: { 'content-type': 'text/plain' } });
  },

  '/timers': async () => {
    const log = [];
    const interval = setInterval(() => log.push('interval'), 5);
    setTimeout(() => log.push('timeout'), 12);
    queueMicrotask(() => log.push('microtask'));
    const signal = AbortSignal.timeout(30);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    clearInterval(interval);
    return Response.json({ first: log[0], sawTimeout: log.includes('timeout'), intervals: log.filter((x) => x === 'interval').length > 1, reason: signal.reason.name });
  },

  '/fetch': async (req, env) => {
    const target = new URL(req.url).searchParams.get('url');
    if (!target) return Response.json({ error: 'pass ?url=' }, { status: 400 });
    try {
      const r = await fetch(target, { signal: AbortSignal.timeout(5000), headers: { 'user-agent': env.GREETING } });
      return Response.json({ status: r.status, type: r.headers.get('content-type'), length: (await r.arrayBuffer()).byteLength });
    } catch (e) {
      return Response.json({ error: `${e.name}: ${e.message}` }, { status: 502 });
    }
  },
};

export default {
  async fetch(request, env, ctx) {
    const route = routes[new URL(request.url).pathname];
    if (!route) return Response.json({ error: 'not found', routes: Object.keys(routes) }, { status: 404 });
    ctx.waitUntil(Promise.resolve().then(() => console.log(`${request.method} ${request.url}`)));
    return route(request, env, ctx);
  },
};
