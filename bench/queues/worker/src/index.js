// GET /produce?n=N&batch=B: N messages in sendBatch calls of B (each resolves once stored);
// GET /count: how many messages the queue() handler has seen (one Counter.add per batch).
import { DurableObject } from 'cloudflare:workers';

export class Counter extends DurableObject {
  add(n) {
    const v = (this.ctx.storage.kv.get('n') || 0) + n;
    this.ctx.storage.kv.put('n', v);
    return v;
  }
  get() { return this.ctx.storage.kv.get('n') || 0; }
}

const counter = (env) => env.COUNTER.get(env.COUNTER.idFromName('count'));

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/produce') {
      const n = Number(url.searchParams.get('n') || '1000');
      const size = Number(url.searchParams.get('batch') || '100');
      for (let i = 0; i < n; i += size) {
        const batch = [];
        for (let j = i; j < Math.min(n, i + size); j++) batch.push({ body: { j, pad: 'x'.repeat(100) } });
        await env.JOBS.sendBatch(batch);
      }
      return new Response('sent ' + n);
    }
    return Response.json(await counter(env).get());
  },
  async queue(batch, env) {
    await counter(env).add(batch.messages.length);
  },
};
