// RpcTargets of the RPC conformance fixture. Each records its disposal in the log of the context it
// lives in (`disposals`); a case reads only entries with its own tags, so the answers are the same
// whether the Worker and the objects share one isolate (workerd) or not (cellgate).
import { RpcTarget } from 'cloudflare:workers';

export const disposals = [];
export const disposedWith = (prefix) => disposals.filter((s) => s.startsWith(prefix));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Base extends RpcTarget {
  inherited() { return 'from base'; }
}

export class Counter extends Base {
  constructor(n, tag) { super(); this.n = n; this.tag = tag; }
  inc(by = 1) { this.n += by; return this.n; }
  async later(by) { await sleep(5); this.n += by; return this.n; }
  get value() { return this.n; }
  boom() { throw new RangeError('bad ' + this.n); }
  get bad() { throw new TypeError('getter failed'); }
  nested() { return new Counter(this.n * 10, this.tag + '.nested'); }
  obj() { return { f: (x) => x * 2, c: new Counter(5, this.tag + '.obj'), v: 'plain' }; }
  async callMe(fn, x) { return await fn(x); }
  self() { return this; }
  custom() { throw new TargetError('mine'); }
  withCause() { throw new Error('outer', { cause: new Error('inner') }); }
  fetch(x) { return 'target fetch ' + x; }
  [Symbol.dispose]() { disposals.push(this.tag); }
}

/** A target without [Symbol.dispose]: disposing its stubs must not fail. */
export class Quiet extends RpcTarget {
  hello(who) { return 'hello ' + who; }
}

class TargetError extends Error {
  constructor(m) { super(m); this.name = 'TargetError'; this.extra = 1; }
}

export class Plain {
  constructor() { this.x = 1; }
}
