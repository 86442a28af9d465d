// The "cloudflare:workers" module: base classes for Durable Objects, entrypoints and RPC targets.
const internal = globalThis[Symbol.for('cellgate.internal')];

export class DurableObject {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}

export class WorkerEntrypoint {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}

export class RpcTarget {
}

export const env = internal.env;
