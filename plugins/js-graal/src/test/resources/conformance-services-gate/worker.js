// ctx.exports by compatibility date and flag (CtxExportsGateTest.java runs this one Worker at
// several dates and flags on workerd and on cellgate): present from 2025-11-17 or with
// enable_ctx_exports, absent before or with disable_ctx_exports, in a Worker's and a Durable Object's ctx.
import { WorkerEntrypoint, DurableObject } from 'cloudflare:workers';

export class Api extends WorkerEntrypoint {
  ping() { return 'pong'; }
}

export class Store extends DurableObject {
  seen() { return ['exports' in this.ctx, typeof this.ctx.exports]; }
}

export default {
  async fetch(request, env, ctx) {
    const worker = ['exports' in ctx, typeof ctx.exports];
    const viaExports = 'exports' in ctx ? await ctx.exports.Api.ping() : null;
    return Response.json({ worker, viaExports, object: await env.STORE.getByName('gate').seen() });
  },
};
