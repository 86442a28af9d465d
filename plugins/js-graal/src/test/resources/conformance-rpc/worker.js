// The RPC conformance fixture: the same bundle runs on workerd (miniflare) and on cellgate's real cell
// host (RpcConformanceTest.java). Each case is GET /case/<name> and answers JSON. Objects are named
// after their case, except where a case reads what an earlier one (an earlier request) left.
import * as workers from 'cloudflare:workers';
import { RpcStub, RpcPromise, RpcProperty, RpcTarget } from 'cloudflare:workers';
import { Counter, Quiet, Plain, disposedWith, sleep } from './targets.js';

export { Exporter, Relay, Refuser } from './objects.js';

const tagOf = (x) => Object.prototype.toString.call(x);
const outcome = async (p) => {
  try { return ['ok', await p]; } catch (e) { return ['error', e?.name, e?.message]; }
};
/** Whether calling f throws at once (and with what), or returns a promise that rejects. */
const how = (f) => {
  try { const p = f(); return outcome(p).then((o) => ['returned', ...o]); } catch (e) { return ['threw', e?.name, e?.message]; }
};

const cases = {
  'module-exports': () => [typeof RpcStub, typeof RpcPromise, typeof RpcProperty, typeof RpcTarget,
    ['RpcStub', 'RpcPromise', 'RpcProperty', 'RpcTarget', 'DurableObject', 'WorkerEntrypoint'].every((k) => k in workers)],
  'target-returned': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    return [typeof c, await c.inc(), await c.inc(5), await c.later(2)];
  },
  'target-getter': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(4, n); return [await c.value, await c.inc(), await c.value]; },
  'target-inherited-method': async (env, n) => (await env.EXPORTER.getByName(n).counter(1, n)).inherited(),
  'target-own-field-refused': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).tag),
  'target-own-field-called': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).tag()),
  'target-missing-method': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).nope()),
  'target-missing-property': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).nope),
  'target-method-throws': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(3, n);
    try { await c.boom(); return 'no error'; } catch (e) { return [e.name, e.message, e instanceof RangeError]; }
  },
  'target-getter-throws': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).bad),
  'target-without-dispose': async (env, n) => {
    const q = await env.EXPORTER.getByName(n).quiet();
    const hello = await q.hello('you');
    q[Symbol.dispose]();
    return [hello, await outcome(q.hello('again'))];
  },
  'stub-shape': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    return [typeof c, tagOf(c), c instanceof RpcStub, c instanceof RpcTarget, typeof c.then, typeof c.dup,
      typeof c[Symbol.dispose], Object.keys(c), String(c)];
  },
  'stub-awaited-is-itself': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); return (await c) === c; },
  'property-shape': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(6, n);
    const v = c.value;
    return [typeof v, tagOf(v), v instanceof RpcProperty, v instanceof RpcPromise, await v];
  },
  'promise-shape': async (env, n) => {
    const p = env.EXPORTER.getByName(n).counter(1, n);
    const shape = [typeof p, tagOf(p), p instanceof Promise, p instanceof RpcPromise, typeof p.then, typeof p.inc, tagOf(p.inc),
      p.inc instanceof RpcProperty, typeof p[Symbol.dispose], typeof p.dup];
    await p;
    return shape;
  },
  'function-returned': async (env, n) => { const f = await env.EXPORTER.getByName(n).fn('fn:'); return [typeof f, tagOf(f), await f('y'), await f(2)]; },
  'function-callback': async (env, n) => env.EXPORTER.getByName(n).callBack((x) => x * 2, 21),
  'function-callback-async': async (env, n) => env.EXPORTER.getByName(n).callBack(async (x) => { await sleep(5); return 'late ' + x; }, 1),
  'function-callback-closure': async (env, n) => {
    let calls = 0;
    const r = await env.EXPORTER.getByName(n).callTwice(() => ++calls);
    return [r, calls];
  },
  'function-callback-throws': async (env, n) => {
    try {
      await env.EXPORTER.getByName(n).callBack(() => { throw new TypeError('callback failed'); }, 0);
      return 'no error';
    } catch (e) { return [e.name, e.message]; }
  },
  'target-argument': async (env, n) => {
    const local = new Counter(10, n);
    const r = await env.EXPORTER.getByName(n).useArg(local, 5);
    return [r, local.n];
  },
  'target-argument-describe': async (env, n) => env.EXPORTER.getByName(n).describe(new Counter(1, n)),
  'function-argument-describe': async (env, n) => env.EXPORTER.getByName(n).describe(() => 1),
  'target-echoed': async (env, n) => {
    const local = new Counter(5, n);
    const r = await env.EXPORTER.getByName(n).echo(local);
    return [r === local, r instanceof Counter, typeof r, await r.inc(), local.n];
  },
  'function-echoed': async (env, n) => { const f = (x) => x + 1; const r = await env.EXPORTER.getByName(n).echo(f); return [r === f, typeof r, await r(1)]; },
  'same-target-twice': async (env, n) => { const c = new Counter(1, n); return env.EXPORTER.getByName(n).same(c, c); },
  'stubs-in-containers': async (env, n) => {
    const [a, { m }, text] = await env.EXPORTER.getByName(n).many(n);
    return [await a.inc(), await m.get('k').inc(), text, m instanceof Map];
  },
  'object-with-function-and-target': async (env, n) => {
    const o = await env.EXPORTER.getByName(n).counter(1, n).obj();
    return [typeof o.f, await o.f(4), await o.c.inc(), o.v];
  },
  'pipeline-call': async (env, n) => env.EXPORTER.getByName(n).counter(2, n).inc(),
  'pipeline-property': async (env, n) => env.EXPORTER.getByName(n).counter(7, n).value,
  'pipeline-chain': async (env, n) => env.EXPORTER.getByName(n).counter(2, n).nested().inc(),
  'pipeline-into-object': async (env, n) => env.EXPORTER.getByName(n).counter(1, n).obj().f(9),
  'pipeline-plain-property': async (env, n) => env.EXPORTER.getByName(n).counter(1, n).obj().v,
  'pipeline-missing-method': async (env, n) => outcome(env.EXPORTER.getByName(n).counter(1, n).nope()),
  'pipeline-first-call-fails': async (env, n) => outcome(env.EXPORTER.getByName(n).failing().inc()),
  'pipeline-then': async (env, n) => env.EXPORTER.getByName(n).counter(1, n).inc(2).then((v) => 'then ' + v),
  'do-stub-getter': async (env, n) => env.EXPORTER.getByName(n).prop,
  'do-stub-field-refused': async (env, n) => outcome(env.EXPORTER.getByName(n).field),
  'do-stub-property-shape': async (env, n) => { const p = env.EXPORTER.getByName(n).prop; return [typeof p, p instanceof RpcProperty, await p]; },
  'dispose-then-call': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    c[Symbol.dispose]();
    return how(() => c.inc());
  },
  'dispose-runs-target-dispose': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const c = await ex.counter(1, n);
    const before = await ex.disposed(n);
    c[Symbol.dispose]();
    await sleep(50);
    return [before, await ex.disposed(n)];
  },
  'dup-keeps-target': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const c = await ex.counter(1, n);
    const d = c.dup();
    c[Symbol.dispose]();
    await sleep(50);
    const afterFirst = await ex.disposed(n);
    const still = await d.inc();
    const dead = await outcome(c.inc());
    d[Symbol.dispose]();
    await sleep(50);
    return [afterFirst, still, dead, await ex.disposed(n)];
  },
  'dispose-twice': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    c[Symbol.dispose]();
    c[Symbol.dispose]();
    return 'no error';
  },
  'using-lowered': async (env, n) => {
    // `using c = await ...` as esbuild lowers it for engines without explicit resource management.
    const ex = env.EXPORTER.getByName(n);
    let inside;
    {
      const c = await ex.counter(1, n);
      try { inside = await c.inc(); } finally { c[Symbol.dispose](); }
    }
    await sleep(50);
    return [typeof Symbol.dispose, typeof Symbol.asyncDispose, inside, await ex.disposed(n)];
  },
  'function-dispose': async (env, n) => {
    const f = await env.EXPORTER.getByName(n).fn('x');
    f[Symbol.dispose]();
    return outcome(f(1));
  },
  'param-disposed-after-call': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    await ex.keep(new Counter(1, n));
    return ex.useKept();
  },
  'param-dup-kept': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const local = new Counter(1, n);
    await ex.keepDup(local);
    return [await ex.useKept(), local.n];
  },
  'param-dup-kept-1': async (env) => env.EXPORTER.getByName('param-dup-kept-across').keepDup(new Counter(1, 'param-dup-kept-1')),
  'param-dup-kept-2': async (env) => env.EXPORTER.getByName('param-dup-kept-across').useKept(),
  'callback-after-call': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const scheduled = await ex.later((x) => x + 100);
    return [scheduled, await ex.laterOutcome()];
  },
  'params-disposed-at-return': async (env, n) => {
    await env.EXPORTER.getByName(n).describe(new Counter(1, n));
    await sleep(50);
    return disposedWith(n);
  },
  'results-disposed-at-end-1': async (env) => {
    const ex = env.EXPORTER.getByName('results-disposed-at-end');
    const kept = await ex.counter(1, 'results-end.a');
    ex.counter(1, 'results-end.b'); // never awaited
    await kept.inc();
    return ex.disposed('results-end');
  },
  'results-disposed-at-end-2': async (env) => { await sleep(50); return env.EXPORTER.getByName('results-disposed-at-end').disposed('results-end'); },
  'object-keeps-result-1': async (env) => env.RELAY.getByName('object-keeps-result').grab('object-keeps-result', 'keeps-result'),
  'object-keeps-result-2': async (env) => env.RELAY.getByName('object-keeps-result').useGrabbed(),
  'relay-target': async (env, n) => { const c = await env.RELAY.getByName(n).relay(n, n); return [await c.inc(), await c.value]; },
  'relay-function': async (env, n) => { const f = await env.RELAY.getByName(n).relayFn(n); return f('x'); },
  'relay-pipeline': async (env, n) => env.RELAY.getByName(n).pipeline(n),
  'forward-stub-as-argument': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    const viaRelay = await env.RELAY.getByName(n).incStub(c, 10);
    return [viaRelay, await c.value];
  },
  'do-stub-as-argument': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const relay = env.RELAY.getByName(n);
    return [await ex.describe(relay), await ex.callStub(relay, 'exporter')];
  },
  'do-stub-as-result': async (env, n) => { const s = await env.EXPORTER.getByName(n).stubOf(n); return [typeof s, await s.hello('worker')]; },
  'local-rpc-stub': async (env, n) => {
    const s = new RpcStub(new Counter(3, n));
    return [typeof s, tagOf(s), s instanceof RpcStub, await s.inc(), await s.value];
  },
  'clone-rpc-target': () => outcome(Promise.resolve().then(() => structuredClone(new Counter(1, 'clone')))),
  'clone-function': () => outcome(Promise.resolve().then(() => structuredClone(() => 1))),
  'argument-symbol': async (env, n) => outcome(env.EXPORTER.getByName(n).echo(Symbol('x'))),
  'argument-weakmap': async (env, n) => outcome(env.EXPORTER.getByName(n).echo(new WeakMap())),
  'argument-class-instance': async (env, n) => outcome(env.EXPORTER.getByName(n).echo(new Plain())),
  'result-class-instance': async (env, n) => outcome(env.REFUSER.getByName(n).plain()),
  'result-symbol': async (env, n) => outcome(env.REFUSER.getByName(n).symbol()),
  'stub-into-storage': async (env, n) => outcome(env.REFUSER.getByName(n).store(() => 1)),
  'target-into-storage': async (env, n) => outcome(env.REFUSER.getByName(n).store(new Quiet())),
  'result-object-disposer': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const r = await ex.many(n);
    const shape = [typeof r[Symbol.dispose], Object.keys(r), typeof r[1][Symbol.dispose]];
    r[Symbol.dispose]();
    await sleep(50);
    return [shape, (await ex.disposed(n)).sort()];
  },
  'plain-result-disposer': async (env, n) => { const r = await env.EXPORTER.getByName(n).plain(); return [typeof r[Symbol.dispose], Object.keys(r), JSON.stringify(r)]; },
  'stub-moved-by-failed-argument': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const c = await ex.counter(1, n);
    return [await outcome(ex.echo(c, Symbol('x'))), await outcome(c.inc())];
  },
  'disposed-stub-as-argument': async (env, n) => {
    const ex = env.EXPORTER.getByName(n);
    const c = await ex.counter(1, n);
    c[Symbol.dispose]();
    return ex.describe(c);
  },
  'pipeline-deep': async (env, n) => env.EXPORTER.getByName(n).counter(1, n).nested().nested().value,
  'pipeline-plain-missing': async (env, n) => outcome(env.EXPORTER.getByName(n).plain().nope),
  'pipeline-plain-missing-call': async (env, n) => outcome(env.EXPORTER.getByName(n).plain().nope()),
  'pipeline-plain-nested': async (env, n) => env.EXPORTER.getByName(n).plain().nested.b,
  'pipeline-failing-property': async (env, n) => outcome(env.EXPORTER.getByName(n).failing().value),
  'target-returns-itself': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    const s = await c.self();
    await s.inc(5);
    return [await c.value, s === c];
  },
  'method-read-as-property': async (env, n) => { const m = await (await env.EXPORTER.getByName(n).counter(1, n)).inc; return typeof m; },
  'getter-called': async (env, n) => outcome((await env.EXPORTER.getByName(n).counter(1, n)).value()),
  'property-called-unbound': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); const f = c.inc; return f(4); },
  'target-custom-error': async (env, n) => {
    try { await (await env.EXPORTER.getByName(n).counter(1, n)).custom(); return 'no error'; } catch (e) { return [e.name, e.message, e.extra, e.remote]; }
  },
  'target-error-cause-dropped': async (env, n) => {
    try { await (await env.EXPORTER.getByName(n).counter(1, n)).withCause(); return 'no error'; } catch (e) { return [e.name, e.message, 'cause' in e]; }
  },
  'target-method-named-fetch': async (env, n) => (await env.EXPORTER.getByName(n).counter(1, n)).fetch('x'),
  'function-dup': async (env, n) => { const f = await env.EXPORTER.getByName(n).fn('dup:'); const g = f.dup(); f[Symbol.dispose](); return [await g(1), await outcome(f(1))]; },
  'function-round-trip': async (env, n) => { const ex = env.EXPORTER.getByName(n); const f = await ex.fn('back:'); return ex.callFn(f, 'w'); },
  'clone-stub': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); return outcome(Promise.resolve().then(() => structuredClone(c))); },
  'clone-rpc-promise': async (env, n) => { const p = env.EXPORTER.getByName(n).counter(1, n); const o = await outcome(Promise.resolve().then(() => structuredClone(p))); await p; return o; },
  'clone-rpc-property': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); return outcome(Promise.resolve().then(() => structuredClone(c.value))); },
  'do-stub-into-storage': async (env, n) => outcome(env.REFUSER.getByName(n).store(env.RELAY.getByName(n))),
  'target-stored-by-its-object': async (env, n) => env.REFUSER.getByName(n).storeOwnTarget(),
  'target-cloned-by-its-object': async (env, n) => outcome(env.REFUSER.getByName(n).cloneOwnTarget()),
  'rpc-promise-as-argument': async (env, n) => { const ex = env.EXPORTER.getByName(n); return outcome(ex.echo(ex.counter(5, n))); },
  'rpc-property-as-argument': async (env, n) => { const ex = env.EXPORTER.getByName(n); const c = await ex.counter(7, n); return outcome(ex.echo(c.value)); },
  'request-as-argument': async (env, n) => outcome(env.EXPORTER.getByName(n).echo(new Request('http://x/')).then((r) => r.url)),
  'headers-as-argument': async (env, n) => {
    const h = await env.EXPORTER.getByName(n).echo(new Headers([['b', '2'], ['a', '1'], ['set-cookie', 'x=1'], ['set-cookie', 'y=2']]));
    return [h instanceof Headers, [...h], h.get('set-cookie')];
  },
  'headers-in-result': async (env, n) => {
    const r = await env.EXPORTER.getByName(n).headers();
    return [r.h instanceof Headers, [...r.h], r.same];
  },
  'local-rpc-stub-function': async () => { const s = new RpcStub((x) => x + 1); return [typeof s, await s(1)]; },
  'local-rpc-stub-object': async () => { const s = new RpcStub({ hello: () => 'hi' }); return [typeof s, await outcome(s.hello())]; },
  'rpc-promise-constructor': () => { try { new RpcPromise(); return 'constructed'; } catch (e) { return [e.name, e.message]; } },
  'assign-on-stub': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); c.extra = 5; return [c.extra, await c.inc()]; },
  'assign-on-do-stub': async (env, n) => { const s = env.EXPORTER.getByName(n); s.extra = 5; return [s.extra, await s.prop]; },
  'in-on-stub': async (env, n) => { const c = await env.EXPORTER.getByName(n).counter(1, n); return ['inc' in c, 'zzz' in c, 'dup' in c]; },
  'callback-through-target': async (env, n) => {
    const c = await env.EXPORTER.getByName(n).counter(1, n);
    return c.callMe((x) => 'worker got ' + x, 7);
  },
};

export default {
  async fetch(request, env, ctx) {
    const name = new URL(request.url).pathname.split('/')[2];
    const run = cases[name];
    if (!run) return new Response('no case ' + name, { status: 404 });
    try {
      return Response.json(await run(env, name, ctx));
    } catch (e) {
      return Response.json({ threw: [e?.name, e?.message] }, { status: 500 });
    }
  },
};
