// The conformance fixture: the same bundle runs on workerd (miniflare) and on cellgate, and the
// harness (ConformanceTest.java) compares the answers. Each case is GET/POST /case/<name>; the
// origin server for outbound fetch is named by the x-origin request header. cases.json lists the
// requests, what to compare, and the cases that differ on purpose (with the reason).
import { DurableObject } from 'cloudflare:workers';
import { shout } from './lib/util.js';
import { streamCases } from './stream-cases.js';
import { urlCases } from './url-cases.js';

const json = (v, init) => Response.json(v, init);
const errName = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name; } };
const errNameAsync = async (p) => { try { await p; return 'no error'; } catch (e) { return e.name; } };
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Counter extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.count = 0;
  }
  async increment(by) { this.count += by; return this.count; }
  async echo(value) { return value; }
  async fail(kind) {
    if (kind === 'range') throw new RangeError('out of range');
    throw new TypeError('bad type');
  }
  async fetch(request) {
    return new Response('counter ' + this.count + ' ' + request.method + ' ' + new URL(request.url).pathname);
  }
}

const cases = {
  'response-basic': () => new Response('hi', { status: 201, statusText: 'Created', headers: { 'X-A': '1' } }),
  'response-json': () => json({ a: 1, b: [1, 'two', null] }, { status: 202 }),
  'response-redirect': () => Response.redirect('https://example.com/x?y=1', 301),
  'response-errors': () => json({
    redirectStatus: errName(() => Response.redirect('https://example.com/', 200)),
    statusRange: errName(() => new Response('', { status: 600 })),
    nullBodyStatus: errName(() => new Response('x', { status: 204 })),
    emptyOk204: new Response(null, { status: 204 }).status,
    okFlag: [new Response('', { status: 299 }).ok, new Response('', { status: 300 }).ok],
  }),
  'response-clone': async () => {
    const r = new Response('twice');
    const c = r.clone();
    return json([await r.text(), await c.text(), r.bodyUsed, c.bodyUsed]);
  },
  'response-body-used': async () => {
    const r = new Response('once');
    const before = r.bodyUsed;
    await r.text();
    return json({ before, after: r.bodyUsed, again: await errNameAsync(r.text()) });
  },
  'response-bodies': async () => {
    const ab = await new Response(new Uint8Array([1, 2, 3])).arrayBuffer();
    const blob = await new Response('abc', { headers: { 'content-type': 'text/x-test' } }).blob();
    return json({
      abLength: ab.byteLength, abIsArrayBuffer: ab instanceof ArrayBuffer,
      blob: [blob.type, blob.size, await blob.text()],
      json: await new Response('{"k":[1,2]}').json(),
      badJson: await errNameAsync(new Response('{').json()),
      emptyText: await new Response(null).text(),
      nullBody: new Response(null).body === null,
    });
  },
  'response-content-types': () => json({
    string: new Response('x').headers.get('content-type'),
    params: new Response(new URLSearchParams('a=1')).headers.get('content-type'),
    bytes: new Response(new Uint8Array([1])).headers.get('content-type'),
    blob: new Response(new Blob(['x'], { type: 'Text/Plain' })).headers.get('content-type'),
    explicit: new Response('x', { headers: { 'content-type': 'text/html' } }).headers.get('content-type'),
  }),
  'headers-basics': () => {
    const h = new Headers({ 'X-Foo': 'a' });
    h.append('x-foo', 'b');
    h.set('Y', '  padded  ');
    return json({ get: h.get('X-FOO'), has: h.has('x-foo'), y: h.get('y'), missing: h.get('nope'), deleted: (h.delete('y'), h.has('Y')) });
  },
  'headers-iteration': () => json({
    entries: [...new Headers([['B', '2'], ['a', '1'], ['set-cookie', 'x=1'], ['Set-Cookie', 'y=2'], ['a', '3']])],
    keys: [...new Headers({ z: '1', m: '2', a: '3' }).keys()],
  }),
  'headers-set-cookie': () => {
    const h = new Headers();
    h.append('Set-Cookie', 'a=1; Path=/');
    h.append('set-cookie', 'b=2');
    return json({ getSetCookie: h.getSetCookie(), get: h.get('set-cookie') });
  },
  'headers-invalid': () => json({
    name: errName(() => new Headers({ 'bad name': 'x' })),
    value: errName(() => new Headers({ a: 'x\ny' })),
    pair: errName(() => new Headers([['a', 'b', 'c']])),
  }),
  'response-multi-cookie': () => {
    const h = new Headers({ 'content-type': 'text/plain' });
    h.append('set-cookie', 'a=1');
    h.append('set-cookie', 'b=2');
    h.append('x-multi', 'one');
    h.append('x-multi', 'two');
    return new Response('cookies', { headers: h });
  },
  'request-incoming': (req) => json({ method: req.method, url: req.url, test: req.headers.get('x-test'), hasBody: req.body !== null }),
  'request-incoming-immutable': (req) => json({ set: errName(() => req.headers.set('x', 'y')) }),
  'request-echo-body': async (req) => new Response('got:' + (await req.text()) + ':' + req.method),
  'request-json-body': async (req) => json({ parsed: await req.json(), type: req.headers.get('content-type') }),
  'request-construct': async () => {
    const r = new Request('https://a.test/p?q=1', { method: 'post', body: 'x', headers: { A: 'b' } });
    const patch = new Request('https://a.test/', { method: 'patch' });
    const custom = new Request('https://a.test/', { method: 'propfind' });
    return json({ method: r.method, url: r.url, a: r.headers.get('a'), type: r.headers.get('content-type'), text: await r.text(),
      patch: patch.method, custom: custom.method, redirect: r.redirect,
      unknown: errName(() => new Request('https://a.test/', { method: 'Custom' })) });
  },
  'request-errors': () => json({
    getWithBody: errName(() => new Request('https://a.test/', { method: 'GET', body: 'x' })),
    badUrl: errName(() => new Request('not a url')),
    badMethod: errName(() => new Request('https://a.test/', { method: 'bad method' })),
    badRedirect: errName(() => new Request('https://a.test/', { redirect: 'sideways' })),
  }),
  'request-clone': async () => {
    const r = new Request('https://a.test/', { method: 'PUT', body: 'payload' });
    const c = r.clone();
    return json([await r.text(), await c.text(), c.method, c.url]);
  },
  'request-from-request': async () => {
    const a = new Request('https://a.test/x', { method: 'POST', body: 'moved', headers: { k: 'v' } });
    const b = new Request(a, { headers: { k: 'w' } });
    return json({ url: b.url, method: b.method, k: b.headers.get('k'), text: await b.text(), aUsed: a.bodyUsed });
  },
  'encoding': () => {
    const bytes = new TextEncoder().encode('héllo €');
    return json({
      bytes: [...bytes], back: new TextDecoder().decode(bytes),
      fatal: errName(() => new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff]))),
      lossy: new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])),
      label: new TextDecoder('utf-8').encoding,
      btoa: btoa('hello'), atob: atob('aGVsbG8='), atobSpaces: atob(' aGVs bG8 '), binary: btoa(String.fromCharCode(0, 255)),
      atobBad: errName(() => atob('a')), btoaBad: errName(() => btoa('€')),
    });
  },
  'crypto-digest': async () => {
    const data = new TextEncoder().encode('abc');
    const out = {};
    for (const alg of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) out[alg] = hex(await crypto.subtle.digest(alg, data));
    out.objectForm = hex(await crypto.subtle.digest({ name: 'sha-256' }, new Uint8Array(0)));
    return json(out);
  },
  'crypto-hmac': async () => {
    const enc = new TextEncoder();
    const key = await crypto.subtle.importKey('raw', enc.encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify']);
    const sig = await crypto.subtle.sign('HMAC', key, enc.encode('message'));
    const key512 = await crypto.subtle.importKey('raw', enc.encode('k'), { name: 'HMAC', hash: { name: 'SHA-512' } }, false, ['sign']);
    return json({
      sig: hex(sig),
      ok: await crypto.subtle.verify('HMAC', key, sig, enc.encode('message')),
      bad: await crypto.subtle.verify('HMAC', key, sig, enc.encode('other')),
      sig512: hex(await crypto.subtle.sign({ name: 'HMAC' }, key512, enc.encode('m'))),
      algorithm: [key.algorithm.name, key.algorithm.hash.name, key.algorithm.length, key.type, key.extractable, key.usages],
      exported: hex(await crypto.subtle.exportKey('raw', key)),
      notExtractable: await errNameAsync(crypto.subtle.exportKey('raw', key512)),
      wrongUsage: await errNameAsync(crypto.subtle.verify('HMAC', key512, sig, enc.encode('m'))),
    });
  },
  'crypto-random': () => {
    const a = crypto.getRandomValues(new Uint8Array(16));
    return json({
      length: a.length, sameArray: crypto.getRandomValues(a) === a,
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
      floats: errName(() => crypto.getRandomValues(new Float32Array(1))),
      tooBig: errName(() => crypto.getRandomValues(new Uint8Array(65537))),
    });
  },
  'crypto-unsupported': async () => json({ aes: await errNameAsync(crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt'])) }),
  'structured-clone': () => {
    const shared = { s: 1 };
    const src = {
      date: new Date(86400000), map: new Map([[1, 'one'], ['k', { v: true }]]), set: new Set([1, 'x']),
      ab: new Uint8Array([9, 8]).buffer, u8: new Uint8Array([1, 2, 3]).subarray(1), f64: new Float64Array([1.5]),
      nested: { arr: [1, [2, { three: 3 }]], undef: undefined, nil: null }, big: 12345678901234567890n, re: /a+b/gi,
      err: new RangeError('r!'), plainErr: new Error('e'), a: shared, b: shared, neg: -0, nan: NaN,
    };
    src.self = src;
    const c = structuredClone(src);
    return json({
      date: c.date instanceof Date && c.date.getTime(), map: [...c.map].map(([k, v]) => [k, typeof v === 'object' ? v.v : v]),
      set: [...c.set], ab: [c.ab instanceof ArrayBuffer, c.ab.byteLength], u8: [c.u8 instanceof Uint8Array, [...c.u8], c.u8.byteOffset],
      f64: [...c.f64], nested: c.nested, hasUndef: 'undef' in c.nested, big: String(c.big), bigType: typeof c.big,
      re: [c.re.source, c.re.flags, c.re instanceof RegExp], err: [c.err instanceof RangeError, c.err.message, c.err.name],
      plainErr: [c.plainErr instanceof Error, c.plainErr.message], sharedKept: c.a === c.b && c.a !== shared,
      cycle: c.self === c, negZero: Object.is(c.neg, -0), nan: Number.isNaN(c.nan),
      fn: errName(() => structuredClone({ f() { } })), sym: errName(() => structuredClone(Symbol('s'))),
    });
  },
  'timers-order': async () => {
    const log = [];
    setTimeout(() => log.push('timeout0'), 0);
    setTimeout(() => log.push('timeout20'), 20);
    queueMicrotask(() => log.push('microtask'));
    Promise.resolve().then(() => log.push('then'));
    log.push('sync');
    await sleep(60);
    return json(log);
  },
  'timers-interval-clear': async () => {
    let ticks = 0;
    let cleared = 0;
    const id = setInterval(() => { ticks++; if (ticks === 3) clearInterval(id); }, 5);
    const t = setTimeout(() => { cleared++; }, 10);
    clearTimeout(t);
    await sleep(80);
    return json({ ticks, cleared, args: await new Promise((r) => setTimeout((a, b) => r([a, b]), 1, 'x', 2)) });
  },
  'abort-controller': () => {
    const c = new AbortController();
    const events = [];
    c.signal.onabort = (e) => events.push('onabort:' + e.type);
    c.signal.addEventListener('abort', () => events.push('listener'));
    const before = c.signal.aborted;
    c.abort();
    c.abort('again');
    const custom = new AbortController();
    custom.abort('why');
    return json({ before, after: c.signal.aborted, reason: c.signal.reason.name, events,
      throwIf: errName(() => c.signal.throwIfAborted()), custom: custom.signal.reason,
      staticAbort: [AbortSignal.abort().aborted, AbortSignal.abort().reason.name] });
  },
  'abort-signal-timeout-any': async () => {
    const t = AbortSignal.timeout(10);
    const c = new AbortController();
    const any = AbortSignal.any([c.signal, t]);
    const early = t.aborted;
    await sleep(60);
    return json({ early, late: t.aborted, reason: t.reason.name, any: any.aborted, anyReason: any.reason.name });
  },
  'events': () => {
    const t = new EventTarget();
    const seen = [];
    const h = (e) => seen.push('h:' + e.type);
    t.addEventListener('ping', h);
    t.addEventListener('ping', (e) => seen.push('once:' + e.type), { once: true });
    t.addEventListener('ping', { handleEvent: (e) => seen.push('obj') });
    t.dispatchEvent(new Event('ping'));
    t.removeEventListener('ping', h);
    t.dispatchEvent(new Event('ping'));
    const cancelable = new Event('c', { cancelable: true });
    t.addEventListener('c', (e) => e.preventDefault());
    const notCanceled = t.dispatchEvent(cancelable);
    let detail = null;
    t.addEventListener('custom', (e) => { detail = e.detail; });
    t.dispatchEvent(new CustomEvent('custom', { detail: { n: 1 } }));
    return json({ seen, notCanceled, defaultPrevented: cancelable.defaultPrevented, detail, type: new Event('x').type,
      noArg: errName(() => new Event()) });
  },
  'blob': async () => {
    const b = new Blob(['ab', new Uint8Array([99, 100]), new Blob(['ef'])], { type: 'Text/Plain' });
    const s = b.slice(1, -1, 'x/y');
    return json({ size: b.size, type: b.type, text: await b.text(), slice: [await s.text(), s.type, s.size],
      negative: await b.slice(-2).text(), bytes: [...new Uint8Array(await b.arrayBuffer())].length });
  },
  'worker-env-and-imports': (req, env) => json({ greeting: env.GREETING, shout: shout('hey'), typeofNs: typeof env.COUNTER }),
  'wait-until': (req, env, ctx) => {
    let done = false;
    ctx.waitUntil(sleep(5).then(() => { done = true; }));
    return json({ respondedBeforeDone: !done, hasWaitUntil: typeof ctx.waitUntil });
  },
  'pass-through-on-exception': (req, env, ctx) => json({ result: errName(() => ctx.passThroughOnException()) }),
  'js-exception': () => { throw new TypeError('handler blew up'); },
  'async-js-exception': async () => { await sleep(1); throw new RangeError('async blew up'); },
  'not-a-response': () => 'just a string',
  'console': () => { console.log('log', { a: 1 }, [1, 2]); console.error(new Error('to the log')); console.warn('%s=%d', 'x', 5); return new Response('logged'); },
  'durable-object-ids': (req, env) => {
    const a = env.COUNTER.idFromName('alpha');
    const b = env.COUNTER.idFromName('alpha');
    const u = env.COUNTER.newUniqueId();
    return json({
      hex64: /^[0-9a-f]{64}$/.test(a.toString()), stable: a.toString() === b.toString(), equals: a.equals(b), name: a.name,
      differs: a.toString() !== env.COUNTER.idFromName('beta').toString(),
      unique: /^[0-9a-f]{64}$/.test(u.toString()) && u.toString() !== env.COUNTER.newUniqueId().toString(),
      roundTrip: env.COUNTER.idFromString(a.toString()).equals(a),
      badString: errName(() => env.COUNTER.idFromString('abc')),
    });
  },
  'durable-object-rpc': async (req, env) => {
    const stub = env.COUNTER.getByName('rpc-' + new URL(req.url).searchParams.get('n'));
    const one = await stub.increment(2);
    const two = await stub.increment(3);
    const echoed = await stub.echo({ when: new Date(5), tags: new Set(['a']), deep: { list: [1, null, undefined] }, big: 7n });
    let thrown;
    try { await stub.fail('range'); } catch (e) { thrown = [e instanceof RangeError, e.name, e.message]; }
    let typeErr;
    try { await stub.fail('type'); } catch (e) { typeErr = [e instanceof TypeError, e.message]; }
    const fetched = await (await stub.fetch('http://do.test/path', { method: 'POST', body: 'b' })).text();
    return json({ one, two, when: echoed.when.getTime(), tags: [...echoed.tags], deep: echoed.deep, big: String(echoed.big),
      thrown, typeErr, fetched });
  },
  ...urlCases,
  ...streamCases,
};

export default {
  async fetch(request, env, ctx) {
    const name = new URL(request.url).pathname.replace(/^\/case\//, '');
    const handler = cases[name];
    if (!handler) return new Response('no case ' + name, { status: 404 });
    return handler(request, env, ctx);
  },
};
