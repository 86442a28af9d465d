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
// Passing an RpcTarget by reference is not supported: the serializer refuses it by name.
internal.RpcTarget = RpcTarget;

export const env = internal.env;
