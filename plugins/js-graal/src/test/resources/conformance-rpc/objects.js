// Durable Object classes of the RPC conformance fixture (see worker.js).
import { DurableObject, RpcTarget } from 'cloudflare:workers';
import { Counter, Quiet, Plain, disposedWith, sleep } from './targets.js';

const outcome = async (p) => {
  try { return ['ok', await p]; } catch (e) { return ['error', e?.name, e?.message]; }
};

/** Hands out targets and functions by reference, and takes them as arguments. */
export class Exporter extends DurableObject {
  counter(n, tag) { return new Counter(n, tag); }
  quiet() { return new Quiet(); }
  fn(prefix) { return (x) => prefix + x; }
  failing() { throw new TypeError('no counter today'); }
  many(tag) { return [new Counter(1, tag + '.0'), { m: new Map([['k', new Counter(2, tag + '.1')]]) }, 'text']; }
  disposed(prefix) { return disposedWith(prefix); }
  echo(x) { return x; }
  same(x, y) { return x === y; }
  describe(x) {
    return [typeof x, Object.prototype.toString.call(x), typeof x.then, typeof x.dup, typeof x[Symbol.dispose]];
  }
  async useArg(target, by) { return await target.inc(by); }
  async callBack(cb, x) { return await cb(x); }
  async callTwice(cb) { const a = await cb(); const b = await cb(); return [a, b]; }
  async keep(stub) { this.kept = stub; return 'kept'; }
  async keepDup(stub) { this.kept = stub.dup(); return 'kept'; }
  async useKept() { return outcome(this.kept.inc(1)); }
  async later(fn) {
    this.laterResult = outcome(sleep(20).then(() => fn(1)));
    return 'scheduled';
  }
  async laterOutcome() { return await this.laterResult; }
  async stubOf(name) { return this.env.RELAY.getByName(name); }
  async callStub(stub, who) { return await stub.hello(who); }
  plain() { return { a: 1, nested: { b: 2 } }; }
  headers() { const h = new Headers({ 'X-One': '1' }); h.append('x-one', 'again'); return { h, same: [h, h] }; }
  async callFn(f, x) { return await f(x); }
  get prop() { return 'a getter'; }
  field = 'an instance field';
}

/** A third object: passes stubs it got from the Exporter on, and keeps one across requests. */
export class Relay extends DurableObject {
  hello(who) { return 'relay says hello to ' + who; }
  async relay(name, tag) { return await this.env.EXPORTER.getByName(name).counter(3, tag); }
  async relayFn(name) { return await this.env.EXPORTER.getByName(name).fn('relayed:'); }
  async incStub(stub, by) { return await stub.inc(by); }
  async grab(name, tag) { this.grabbed = await this.env.EXPORTER.getByName(name).counter(1, tag); return await this.grabbed.inc(1); }
  async useGrabbed() { return outcome(this.grabbed.inc(1)); }
  async pipeline(name) { return await this.env.EXPORTER.getByName(name).counter(4, 'relay.pipe').nested().inc(1); }
}

/** Returns values that cannot travel. */
export class Refuser extends DurableObject {
  plain() { return new Plain(); }
  symbol() { return { s: Symbol('s') }; }
  store(v) { return this.ctx.storage.put('k', v).then(() => 'stored'); }
  async storeOwnTarget() { await this.ctx.storage.put('t', new Quiet()); return Object.keys(await this.ctx.storage.get('t')); }
  cloneOwnTarget() { return structuredClone({ t: new Quiet() }); }
}
