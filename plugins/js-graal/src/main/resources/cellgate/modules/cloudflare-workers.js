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

// Passed over RPC by reference: the receiver gets a stub (rpc-server.js, rpc-client.js).
export class RpcTarget {
}
internal.RpcTarget = RpcTarget;
// What a service binding's callee and ctx.exports tell apart by base class (service-bindings.js).
internal.WorkerEntrypoint = WorkerEntrypoint;
internal.DurableObject = DurableObject;

// What RPC hands out: stubs, the promise of a call, a property of a stub. Their behaviour is in
// rpc-client.js (loaded on first use); the classes live here so `instanceof` works against them.
export class RpcStub {
  constructor(target) {
    return internal.rpcLocalStub(target);
  }
}
export class RpcPromise {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
}
export class RpcProperty {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
}
internal.RpcStub = RpcStub;
internal.RpcPromise = RpcPromise;
internal.RpcProperty = RpcProperty;

export const env = internal.env;

// A Workflow's class (docs/workflows.md): constructed with (ctx, env) by the instance's cell
// (bindings/workflow.js), which calls its run(event, step).
export class WorkflowEntrypoint {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}
