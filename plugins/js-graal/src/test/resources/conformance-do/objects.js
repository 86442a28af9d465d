// The Durable Object classes of the fixture.
import { DurableObject } from 'cloudflare:workers';
import { describe, sleep } from './describe.js';
import { sqlCases } from './sql-cases.js';
import { storageCases } from './storage-cases.js';

const CASES = { ...storageCases, ...sqlCases };

/** Runs the storage and SQL cases; its alarm() records every run and fails as told. */
export class Store extends DurableObject {
  async run(name) {
    if (!(name in CASES)) throw new Error('no storage case ' + name);
    return CASES[name](this.ctx.storage);
  }

  async transactionAcrossIo() {
    const s = this.ctx.storage;
    await s.put('x', 1);
    let error;
    try {
      await s.transaction(async (txn) => { await txn.put('x', 5); await sleep(10); await txn.put('z', 5); throw new Error('late'); });
    } catch (e) {
      error = e.name + ': ' + e.message;
    }
    return { error, x: await s.get('x'), z: describe(await s.get('z')) };
  }

  async arm(ms, failures, rearm) {
    const s = this.ctx.storage;
    await s.put({ failures, rearm, runs: [] });
    await s.setAlarm(new Date(Date.now() + ms));
    return (await s.getAlarm()) > Date.now() - 1000;
  }

  async alarm(info) {
    const s = this.ctx.storage;
    const runs = await s.get('runs');
    runs.push({ retryCount: info.retryCount, isRetry: info.isRetry, alarmDuring: await s.getAlarm() });
    await s.put('runs', runs);
    if ((await s.get('rearm')) > 0) {
      await s.put('rearm', (await s.get('rearm')) - 1);
      await s.setAlarm(Date.now() + 20);
      return;
    }
    if (runs.length <= (await s.get('failures'))) throw new Error('planned failure ' + runs.length);
  }

  async alarmStatus() {
    return { runs: (await this.ctx.storage.get('runs')) ?? [], alarm: await this.ctx.storage.getAlarm() };
  }

  async idInfo(otherName) {
    const id = this.ctx.id;
    return {
      hex: /^[0-9a-f]{64}$/.test(id.toString()), name: id.name, equalsOwn: id.equals(this.env.STORE.idFromName(otherName)),
      json: JSON.stringify({ id }) === JSON.stringify({ id: id.toString() }), tag: typeof id.toString(),
    };
  }

  async waitUntilWrite(ms) {
    this.ctx.waitUntil(sleep(ms).then(() => this.ctx.storage.put('later', 'written by waitUntil')));
    return 'answered first';
  }

  async read(key) {
    return describe(await this.ctx.storage.get(key));
  }

  async incr() {
    // Read-modify-write across awaits: only the input gate keeps concurrent calls from losing updates.
    const n = (await this.ctx.storage.get('n')) ?? 0;
    await this.ctx.storage.put('n', n + 1);
    return n + 1;
  }
}

/** A class without alarm(): setAlarm() is refused. */
export class Plain extends DurableObject {
  async tryAlarm() {
    const s = this.ctx.storage;
    const r = {};
    try { await s.setAlarm(Date.now() + 60_000); r.set = 'set'; } catch (e) { r.set = e.name + ': ' + e.message; }
    r.get = await s.getAlarm();
    try { await s.deleteAlarm(); r.del = 'deleted'; } catch (e) { r.del = e.name + ': ' + e.message; }
    return r;
  }
}

/** blockConcurrencyWhile and the input gate: every event appends to an in-memory log. */
export class Gate extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.log = ['constructor'];
    ctx.blockConcurrencyWhile(async () => {
      await sleep(60);
      this.log.push('constructor-bcw-done');
      this.ready = true;
    });
  }

  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/hold') {
      this.log.push('hold-start');
      const ms = Number(new URL(request.url).searchParams.get('ms') ?? 80);
      const v = await this.ctx.blockConcurrencyWhile(async () => { await sleep(ms); this.log.push('hold-end'); return 'held'; });
      return new Response(v);
    }
    if (path === '/slow') {
      this.log.push('slow-start');
      await sleep(200);
      this.log.push('slow-end');
      return new Response('slow');
    }
    this.log.push('fetch ' + path);
    return new Response(String(this.ready));
  }

  async quick(tag) {
    this.log.push('rpc ' + tag);
    return this.ready === true;
  }

  async holdRpc() {
    this.log.push('rpc-hold-start');
    return this.ctx.blockConcurrencyWhile(async () => { await sleep(80); this.log.push('rpc-hold-end'); return 7; });
  }

  async syncValue() {
    return [await this.ctx.blockConcurrencyWhile(() => 42), await this.ctx.blockConcurrencyWhile(async () => 'async')];
  }

  async getLog() {
    return this.log;
  }
}

/** A failing blockConcurrencyWhile breaks the object: it is constructed again for later calls. */
export class Breaker extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.memory = 0;
  }

  async touch() {
    this.memory++;
    return { memory: this.memory, stored: (await this.ctx.storage.get('k')) ?? null };
  }

  async breakIt(caught) {
    this.memory++;
    await this.ctx.storage.put('k', 'kept');
    // 250 ms: long enough that the calls sent behind it are queued before it fails, even on a loaded machine
    const p = this.ctx.blockConcurrencyWhile(async () => { await sleep(250); throw new RangeError('bcw failed'); });
    if (caught) {
      try { await p; } catch (e) { return 'caught ' + e.message; }
    }
    await p;
    return 'unreachable';
  }

  /** ctx.abort(): nothing after it runs (not even catch or finally), and this turn's writes go. */
  async abortIt(reason) {
    this.memory++;
    await this.ctx.storage.put('k', 'dropped with the turn');
    try {
      if (reason === undefined) this.ctx.abort(); else this.ctx.abort(reason);
    } catch (e) {
      return 'caught ' + e.message;
    } finally {
      await this.ctx.storage.put('finally', 'ran');
    }
    return 'unreachable';
  }

  async keep(v) {
    await this.ctx.storage.put('k', v);
    return this.memory;
  }

  async slowTouch(ms) {
    await sleep(ms);
    return this.touch();
  }

  async finallyRan() {
    return (await this.ctx.storage.get('finally')) ?? null;
  }
}

/** RPC: error classes, reserved names, structured-clone arguments and results. */
export class Rpc extends DurableObject {
  field = 5;
  range() { throw new RangeError('bad range'); }
  async type() { throw new TypeError('bad type'); }
  custom() { class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; } } throw new MyError('mine'); }
  str() { throw 'a string'; }
  dom() { throw new DOMException('dom msg', 'AbortError'); }
  withCause() { throw new Error('outer', { cause: new TypeError('inner') }); }
  returnsError() { return new RangeError('returned'); }
  echo(...args) { return args; }
  get prop() { return 'getter'; }
  async alarm() {}
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/throw') throw new RangeError('fetch threw');
    if (path === '/not-a-response') return 'text';
    return new Response('rpc fetch ' + request.method + ' ' + path, { headers: { 'x-rpc': 'yes' } });
  }
}
