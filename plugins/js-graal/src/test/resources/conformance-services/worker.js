// The service-binding fixture: the same bundle runs on workerd (miniflare) and on cellgate's real
// cell host (ServiceBindingConformanceTest.java). env.SELF binds the default export, env.API and
// env.API_PROPS the named WorkerEntrypoint Api (the second with props), env.PLAIN a plain-object
// named export, env.NOFETCH an entrypoint without fetch(); ctx.exports (on by the compatibility
// date) loops back to the same exports. Each case is GET /case/<name> and answers JSON; requests
// a case makes to this Worker itself use paths under /inner/.
import { WorkerEntrypoint, DurableObject, RpcTarget, RpcStub } from 'cloudflare:workers';

const log = []; // module state: the callee runs in the caller's isolate (context) on both
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tagOf = (x) => Object.prototype.toString.call(x);
const errorOf = (e) => ['error', e?.name, e?.message, e?.remote === true];
const outcome = async (p) => { try { return ['ok', describe(await p)]; } catch (e) { return errorOf(e); } };
const how = (f) => { try { return outcome(f()); } catch (e) { return ['threw', e?.name, e?.message]; } };
let instances = 0;
let innerCtx = null;

/** A JSON-able picture of a value that keeps what JSON would lose (types, undefined, -0, BigInt…). */
function describe(v) {
  if (v === undefined) return { undefined: true };
  if (typeof v === 'bigint') return { bigint: String(v) };
  if (typeof v === 'number' && Object.is(v, -0)) return { negZero: true };
  if (typeof v === 'number' && Number.isNaN(v)) return { nan: true };
  if (typeof v === 'function') return { fn: tagOf(v) };
  if (typeof v !== 'object' || v === null) return v;
  if (v instanceof Date) return { date: v.toISOString() };
  if (v instanceof RegExp) return { regexp: String(v) };
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [describe(k), describe(x)]) };
  if (v instanceof Set) return { set: [...v].map(describe) };
  if (v instanceof ArrayBuffer) return { arrayBuffer: [...new Uint8Array(v)] };
  if (ArrayBuffer.isView(v)) return { view: tagOf(v), bytes: [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)] };
  if (v instanceof Error) return { error: v.name, message: v.message };
  if (Array.isArray(v)) return v.map(describe);
  if (v instanceof Headers) return { headers: [...v] };
  return Object.fromEntries(Object.keys(v).map((k) => [k, describe(v[k])]));
}

class Counter extends RpcTarget {
  constructor(n) { super(); this.n = n; }
  inc(d = 1) { this.n += d; return this.n; }
  get value() { return this.n; }
}

class MyError extends Error {
  constructor(m) { super(m); this.name = 'MyError'; }
}

export class Api extends WorkerEntrypoint {
  constructor(ctx, env) { super(ctx, env); this.field = 'own field'; this.id = ++instances; }
  add(a, b) { return a + b; }
  async slow(x) { await sleep(5 * (5 - x)); return x * 10; }
  echo(v) { return v; }
  echoDescribed(v) { return describe(v); }
  // a service binding received as an argument, used by the callee: RPC through it and a fetch
  async useService(s) { return [Object.prototype.toString.call(s), await s.add(20, 1), await (await s.fetch('http://self.test/inner/double/3')).text()]; }
  types() {
    return { date: new Date(86400000), map: new Map([[1, 'one'], ['k', [2]]]), set: new Set(['a', 1]), big: 12345678901234567890n,
      bytes: new Uint8Array([1, 2, 255]), nested: { a: [1, { b: null, c: undefined }] }, re: /ab+c/gi, negZero: -0, nan: NaN,
      err: new TypeError('carried, not thrown'), str: 'ünïcødé ✓' };
  }
  fail() { throw new RangeError('api failed'); }
  failCustom() { throw new MyError('custom failure'); }
  async failAsync() { await sleep(1); throw new TypeError('async failure'); }
  failString() { throw 'a string'; } // eslint-disable-line no-throw-literal
  props() { return this.ctx.props; }
  envKeys() { return Object.keys(this.env).sort(); }
  ctxShape() {
    return [tagOf(this.ctx), typeof this.ctx.waitUntil, typeof this.ctx.passThroughOnException, 'props' in this.ctx,
      'exports' in this.ctx, this.ctx === innerCtx, Object.keys(this).sort()];
  }
  instanceId() { return this.id; }
  counter(n) { return new Counter(n); }
  fn(prefix) { return (x) => prefix + x; }
  callBack(f, x) { return f(x); }
  async callStub(stub, x) { return await stub.inc(x); }
  get prop() { return 'getter value'; }
  get failingProp() { throw new SyntaxError('getter failed'); }
  later() { this.ctx.waitUntil(sleep(10).then(() => log.push('api waitUntil ran'))); return 'returned first'; }
  nested(x) { return this.env.SELF.fetch('http://self.test/inner/double/' + x).then((r) => r.text()); }
  viaExports(x) { return this.ctx.exports.Api.add(x, 100); }
  alarm() { return 'alarm called'; }
  webSocketMessage() { return 'ws called'; }
  async fetch(request) {
    return new Response('Api.fetch ' + request.method + ' ' + new URL(request.url).pathname + ' ' + request.headers.get('x-test')
      + ' props=' + JSON.stringify(this.ctx.props), { headers: { 'x-from': 'Api' } });
  }
}

export class NoFetch extends WorkerEntrypoint {
  hello() { return 'hi from NoFetch'; }
}

export class Store extends DurableObject {
  async fetch(request) { return new Response('Store.fetch ' + new URL(request.url).pathname); }
  async bump() { const n = ((await this.ctx.storage.get('n')) || 0) + 1; await this.ctx.storage.put('n', n); return n; }
  viaSelf(x) { return this.env.API.add(x, 1); }
  viaSelfFetch() { return this.env.SELF.fetch('http://self.test/inner/echo', { method: 'POST', body: 'from Store' }).then((r) => r.text()); }
  viaExports(x) { return this.ctx.exports.Api.add(x, 2); }
  exportsKeys() { return 'exports' in this.ctx ? Object.keys(this.ctx.exports).sort() : 'no exports'; }
  blocked() { return this.ctx.blockConcurrencyWhile(() => this.env.API.add(20, 22)); }
}

export class Unbound extends DurableObject {
}

export const plain = {
  async fetch(request, env, ctx) { return new Response('plain.fetch ' + new URL(request.url).pathname); },
  hello(arg, env, ctx) { return ['hello', arg, typeof env.API, typeof ctx.waitUntil]; },
  short(arg) { return ['short', arg]; },
  four(a, b, env, ctx) { return 'four'; },
  value: 42,
};

// What the default export answers to requests from this Worker itself (paths under /inner/).
async function inner(request, env, ctx, path) {
  innerCtx = ctx;
  if (path === '/inner/echo') {
    const headers = [...request.headers].filter(([k]) => k.startsWith('x-'));
    return Response.json({ method: request.method, url: request.url, headers, body: await request.text(), cf: typeof request.cf,
      props: ctx.props });
  }
  if (path.startsWith('/inner/double/')) return new Response(String(2 * Number(path.slice(14))));
  if (path === '/inner/stream') {
    const enc = new TextEncoder();
    const body = new ReadableStream({
      async start(c) { for (const part of ['one ', 'two ', 'three']) { await sleep(2); c.enqueue(enc.encode(part)); } c.close(); },
    });
    return new Response(body, { status: 207, statusText: 'Multi', headers: { 'x-streamed': 'yes', 'content-type': 'text/plain' } });
  }
  if (path === '/inner/upload') {
    const reader = request.body.getReader();
    let chunks = 0;
    let text = '';
    for (;;) { const { done, value } = await reader.read(); if (done) break; chunks++; text += new TextDecoder().decode(value); }
    return Response.json({ text, gotChunks: chunks > 0 });
  }
  if (path === '/inner/throw') throw new RangeError('inner handler threw');
  if (path === '/inner/not-a-response') return 'just a string';
  if (path === '/inner/headers-mutable') {
    try { request.headers.set('x-new', '1'); return new Response('mutable'); } catch (e) { return new Response(e.name + ': ' + e.message); }
  }
  if (path === '/inner/wait') { ctx.waitUntil(sleep(10).then(() => log.push('inner waitUntil ran'))); return new Response('answered'); }
  if (path === '/inner/ctx') return Response.json([ctx === outerCtx, typeof ctx.waitUntil, ctx.props]);
  return new Response('inner 404 ' + path, { status: 404 });
}
let outerCtx = null;

const cases = {
  // ---- env.SELF: the default export ----
  'self-shape': (env) => [typeof env.SELF, tagOf(env.SELF), typeof env.SELF.fetch, typeof env.SELF.connect, typeof env.SELF.then,
    typeof env.SELF.anything, 'anything' in env.SELF, JSON.stringify(env.SELF)],
  'self-fetch-url': async (env) => (await env.SELF.fetch('http://self.test/inner/echo?q=1')).json(),
  'self-fetch-url-object': async (env) => (await env.SELF.fetch(new URL('https://other.example/inner/echo'))).json(),
  'self-fetch-init': async (env) => (await env.SELF.fetch('http://self.test/inner/echo', { method: 'PUT', body: 'put body',
    headers: { 'x-a': '1', 'x-b': 'two' } })).json(),
  'self-fetch-request': async (env) => {
    const req = new Request('http://self.test/inner/echo', { method: 'POST', body: 'request body', headers: { 'x-req': 'yes' } });
    const r = await (await env.SELF.fetch(req)).json();
    return [r, req.bodyUsed];
  },
  'self-fetch-request-and-init': async (env) => {
    const req = new Request('http://self.test/inner/echo', { method: 'POST', body: 'first', headers: { 'x-req': 'yes' } });
    return (await env.SELF.fetch(req, { method: 'PATCH', body: 'second', headers: { 'x-init': 'won' } })).json();
  },
  'self-fetch-streamed-response': async (env) => {
    const r = await env.SELF.fetch('http://self.test/inner/stream');
    const reader = r.body.getReader();
    let text = '';
    for (;;) { const { done, value } = await reader.read(); if (done) break; text += new TextDecoder().decode(value); }
    return [r.status, r.statusText, r.headers.get('x-streamed'), r.headers.get('content-type'), text, r.url, r.redirected];
  },
  'self-fetch-streamed-request': async (env) => {
    const enc = new TextEncoder();
    const body = new ReadableStream({ async start(c) { c.enqueue(enc.encode('up ')); await sleep(2); c.enqueue(enc.encode('load')); c.close(); } });
    return (await env.SELF.fetch('http://self.test/inner/upload', { method: 'POST', body, duplex: 'half' })).json();
  },
  'self-fetch-response-headers-immutable': async (env) => {
    const r = await env.SELF.fetch('http://self.test/inner/echo');
    try { r.headers.set('x-y', '1'); return 'mutable'; } catch (e) { return [e.name, e.message]; }
  },
  'self-fetch-request-headers-immutable': async (env) => (await env.SELF.fetch('http://self.test/inner/headers-mutable')).text(),
  'self-fetch-handler-throws': async (env) => how(() => env.SELF.fetch('http://self.test/inner/throw')),
  'self-fetch-not-a-response': async (env) => how(() => env.SELF.fetch('http://self.test/inner/not-a-response')),
  'self-fetch-relative-url': async (env) => how(() => env.SELF.fetch('/inner/echo')),
  'self-fetch-bad-method': async (env) => how(() => env.SELF.fetch('http://self.test/inner/echo', { method: 'BAD METHOD' })),
  'self-fetch-404': async (env) => { const r = await env.SELF.fetch('http://self.test/inner/nothing'); return [r.status, await r.text()]; },
  'self-fetch-new-ctx': async (env, ctx) => (await env.SELF.fetch('http://self.test/inner/ctx')).json(),
  'self-fetch-wait-until': async (env) => {
    const before = log.length;
    const text = await (await env.SELF.fetch('http://self.test/inner/wait')).text();
    await sleep(60);
    return [text, log.slice(before)];
  },
  'self-fetch-concurrent': async (env) => Promise.all([1, 2, 3, 4].map((i) =>
    env.SELF.fetch('http://self.test/inner/double/' + i).then((r) => r.text()))),
  'self-rpc-function': async (env) => outcome(env.SELF.greet('bob')),
  'self-rpc-two-args': async (env) => outcome(env.SELF.greet('a', 'b')),
  'self-rpc-no-args': async (env) => outcome(env.SELF.greet()),
  'self-rpc-too-many-params': async (env) => outcome(env.SELF.four('x')),
  'self-rpc-missing': async (env) => outcome(env.SELF.nope(1)),
  'self-rpc-inherited': async (env) => outcome(env.SELF.toString()),
  'self-rpc-value-property': async (env) => outcome(env.SELF.answer),
  'self-rpc-value-called': async (env) => outcome(env.SELF.answer()),
  'self-rpc-reserved-alarm': async (env) => outcome(env.SELF.alarm()),
  'self-assign-stays-local': async (env) => { env.SELF.extra = 5; const v = env.SELF.extra; delete env.SELF.extra; return v; },
  // ---- env.API: a named WorkerEntrypoint ----
  'api-add': async (env) => env.API.add(2, 3),
  'api-types': async (env) => describe(await env.API.types()),
  'api-echo-types': async (env) => {
    const values = [undefined, null, true, -0, NaN, Infinity, 2n ** 70n, 'str', [1, [2, [3]]], { a: { b: { c: 'd' } } }, new Date(5),
      new Map([[{ k: 1 }, new Set([1])]]), new Uint16Array([1, 65535]), new ArrayBuffer(3), new DataView(new ArrayBuffer(2)),
      new RangeError('as a value'), /re/m, new Headers([['a', '1'], ['b', '2']])];
    return Promise.all(values.map((v) => env.API.echoDescribed(v)));
  },
  'api-echo-round-trip': async (env) => describe(await env.API.echo({ when: new Date(7), list: [1n, 'x'], bytes: new Uint8Array([9]) })),
  'api-shared-references': async (env) => { const o = { x: 1 }; const r = await env.API.echo([o, o]); return r[0] === r[1]; },
  'api-cycle': async (env) => { const o = { name: 'c' }; o.self = o; const r = await env.API.echo(o); return [r.self === r, r.name]; },
  'api-error': async (env) => { try { await env.API.fail(); return 'no error'; } catch (e) { return [...errorOf(e), e instanceof RangeError]; } },
  'api-error-custom-class': async (env) => outcome(env.API.failCustom()),
  'api-error-async': async (env) => outcome(env.API.failAsync()),
  'api-error-string': async (env) => outcome(env.API.failString()),
  'api-missing-method': async (env) => outcome(env.API.nope()),
  'api-own-field': async (env) => outcome(env.API.field),
  'api-own-field-called': async (env) => outcome(env.API.field()),
  'api-getter': async (env) => outcome(env.API.prop),
  'api-getter-throws': async (env) => outcome(env.API.failingProp),
  'api-getter-called': async (env) => outcome(env.API.prop()),
  'api-method-as-property': async (env) => outcome(env.API.add),
  'api-reserved-alarm': async (env) => outcome(env.API.alarm()),
  'api-reserved-ws': async (env) => outcome(env.API.webSocketMessage()),
  'api-reserved-constructor': async (env) => outcome(env.API.constructor()),
  'api-reserved-dup': async (env) => outcome(env.API.dup()),
  'api-object-prototype-member': async (env) => outcome(env.API.hasOwnProperty('x')),
  'api-no-props': async (env) => outcome(env.API.props()),
  'api-props': async (env) => outcome(env.API_PROPS.props()),
  'api-props-in-fetch': async (env) => (await env.API_PROPS.fetch('http://self.test/p')).text(),
  'api-env': async (env) => outcome(env.API.envKeys()),
  'api-ctx': async (env) => outcome(env.API.ctxShape()),
  'api-new-instance-per-call': async (env) => { const a = await env.API.instanceId(); const b = await env.API.instanceId(); return b - a; },
  'api-concurrent-calls': async (env) => Promise.all([1, 2, 3, 4].map((i) => env.API.slow(i))),
  'api-wait-until': async (env) => { const before = log.length; const r = await env.API.later(); await sleep(60); return [r, log.slice(before)]; },
  'api-fetch': async (env) => {
    const r = await env.API.fetch('http://self.test/some/path', { headers: { 'x-test': 'header value' } });
    return [r.status, await r.text(), r.headers.get('x-from')];
  },
  'api-nested-self-call': async (env) => outcome(env.API.nested(21)),
  'api-symbol-property': (env) => [typeof env.API[Symbol.iterator], typeof env.API[Symbol.dispose]],
  'api-promise-shape': async (env) => { const p = env.API.add(1, 1); const shape = [typeof p, tagOf(p), p instanceof Promise, typeof p.then]; await p; return shape; },
  'api-property-shape': (env) => [typeof env.API.add, tagOf(env.API.add)],
  // ---- by reference through the entrypoint ----
  'api-target-returned': async (env) => { const c = await env.API.counter(5); return [typeof c, tagOf(c), await c.inc(), await c.inc(2), await c.value]; },
  'api-function-returned': async (env) => { const f = await env.API.fn('p:'); return [typeof f, await f('x'), await f(2)]; },
  'api-callback': async (env) => env.API.callBack((x) => x * 3, 7),
  'api-callback-async': async (env) => env.API.callBack(async (x) => { await sleep(2); return 'late ' + x; }, 1),
  'api-callback-throws': async (env) => outcome(env.API.callBack(() => { throw new TypeError('callback failed'); }, 0)),
  'api-target-argument': async (env) => { const c = new Counter(10); const r = await env.API.callStub(c, 5); return [r, c.n]; },
  'api-local-stub-argument': async (env) => { const s = new RpcStub(new Counter(1)); return [await env.API.callStub(s, 2), await s.value]; },
  'api-pipelining': async (env) => [await env.API.counter(1).inc(4), await env.API.counter(3).value],
  'api-pipelining-fails': async (env) => outcome(env.API.fail().inc()),
  'api-target-disposed': async (env) => { const c = await env.API.counter(1); c[Symbol.dispose](); return outcome(c.inc()); },
  'api-target-kept-1': async (env) => { globalThis.keptCounter = await env.API.counter(100); return await globalThis.keptCounter.inc(); },
  'api-target-kept-2': async () => outcome(globalThis.keptCounter.inc()),
  'api-service-as-argument': async (env) => how(() => env.API.echo(env.SELF)),
  'api-service-argument-used': async (env) => how(() => env.API.useService(env.API)),
  'api-large-argument': async (env) => (await env.API.echo('x'.repeat(200000))).length,
  // ---- other entrypoints ----
  'nofetch-rpc': async (env) => outcome(env.NOFETCH.hello()),
  'nofetch-fetch': async (env) => how(() => env.NOFETCH.fetch('http://self.test/')),
  'plain-rpc': async (env) => outcome(env.PLAIN.hello('arg')),
  'plain-rpc-short-function': async (env) => outcome(env.PLAIN.short('arg')),
  'plain-rpc-value': async (env) => outcome(env.PLAIN.value),
  'plain-fetch': async (env) => (await env.PLAIN.fetch('http://self.test/plain/path')).text(),
  // ---- ctx.exports ----
  'exports-shape': (env, ctx) => ['exports' in ctx, Object.keys(ctx.exports).sort(),
    Object.keys(ctx.exports).sort().map((k) => [k, typeof ctx.exports[k], tagOf(ctx.exports[k])]), ctx.exports === ctx.exports],
  'exports-api-rpc': async (env, ctx) => outcome(ctx.exports.Api.add(40, 2)),
  'exports-api-fetch': async (env, ctx) => (await ctx.exports.Api.fetch('http://self.test/via/exports')).text(),
  'exports-api-props': async (env, ctx) => outcome(ctx.exports.Api.props()),
  'exports-api-specialized-props': async (env, ctx) => how(() => ctx.exports.Api({ props: { chosen: 'here' } }).props()),
  'exports-nofetch': async (env, ctx) => outcome(ctx.exports.NoFetch.hello()),
  'exports-default-fetch': async (env, ctx) => how(() => ctx.exports.default.fetch('http://self.test/inner/double/4').then((r) => r.text())),
  'exports-default-rpc': async (env, ctx) => how(() => ctx.exports.default.greet('exports')),
  'exports-do-namespace': async (env, ctx) => [typeof ctx.exports.Store.idFromName, await ctx.exports.Store.getByName('exports-do').bump(),
    await env.STORE.getByName('exports-do').bump(), ctx.exports.Store.idFromName('a').toString() === env.STORE.idFromName('a').toString()],
  'exports-do-fetch': async (env, ctx) => (await ctx.exports.Store.getByName('exports-fetch').fetch('http://do.test/x')).text(),
  'exports-in-entrypoint': async (env) => outcome(env.API.viaExports(1)),
  'exports-in-do': async (env) => outcome(env.STORE.getByName('exports-in-do').viaExports(5)),
  'exports-keys-in-do': async (env) => outcome(env.STORE.getByName('exports-keys').exportsKeys()),
  // ---- from a Durable Object ----
  'do-calls-entrypoint': async (env) => outcome(env.STORE.getByName('do-calls').viaSelf(9)),
  'do-fetches-self': async (env) => outcome(env.STORE.getByName('do-fetches').viaSelfFetch()),
  'do-service-call-in-block-concurrency': async (env) => outcome(env.STORE.getByName('do-blocked').blocked()),
};

export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/inner/')) return inner(request, env, ctx, path);
    outerCtx = ctx;
    const name = path.split('/')[2];
    const run = cases[name];
    if (!run) return new Response('no case ' + name, { status: 404 });
    try {
      return Response.json(await run(env, ctx));
    } catch (e) {
      return Response.json({ threw: [e?.name, e?.message] }, { status: 500 });
    }
  },
  greet(arg, env, ctx) { return ['greet', arg, typeof env.SELF, typeof ctx.waitUntil, ctx.props]; },
  four(a, b, env, ctx) { return 'four'; },
  answer: 42,
};
