// The nodejs_compat conformance fixture: the same bundle runs on workerd (miniflare) and on
// cellgate, and NodeConformanceTest compares the answers case by case (cases.json). Each case is
// GET /case/<name> and answers JSON. Imports use both the node: prefix and bare names (bare names
// resolve under nodejs_compat_v2, implied from 2024-09-23).
import { Buffer } from 'node:buffer';
import * as bufferModule from 'buffer';
import EventEmitter, { once, errorMonitor, getEventListeners } from 'node:events';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import crypto from 'node:crypto';
import { createHash, createHmac, randomBytes, timingSafeEqual, pbkdf2Sync, hkdfSync, randomUUID, randomInt } from 'crypto';
import { Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished } from 'node:stream';
import * as streamPromises from 'node:stream/promises';
import * as streamWeb from 'node:stream/web';
import * as consumers from 'node:stream/consumers';
import { StringDecoder } from 'node:string_decoder';
import util, { format, inspect, promisify, callbackify, inherits, types, isDeepStrictEqual } from 'node:util';
import * as utilTypes from 'node:util/types';
import path from 'node:path';
import posix from 'node:path/posix';
import url, { fileURLToPath, pathToFileURL } from 'node:url';
import querystring from 'node:querystring';
import assert from 'node:assert';
import strict from 'node:assert/strict';
import zlib from 'node:zlib';
import timers from 'node:timers';
import * as timersPromises from 'node:timers/promises';
import processModule from 'node:process';
import dc from 'node:diagnostics_channel';
import os from 'node:os';
import punycode from 'node:punycode';
import { DurableObject } from 'cloudflare:workers';

const json = (v) => Response.json(v);
const err = (fn) => { try { fn(); return 'no error'; } catch (e) { return [e.name, e.code ?? null, e.message]; } };
const errAsync = async (p) => { try { await p; return 'no error'; } catch (e) { return [e.name, e.code ?? null, e.message]; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const als = new AsyncLocalStorage();

export class Store extends DurableObject {
  async read(key) { await this.ctx.storage.put(key, 'v-' + key); return this.ctx.storage.get(key); }
}

const cases = {
  // ---- buffer ----
  'buffer-from-encodings': () => json({
    hex: Buffer.from('héllo').toString('hex'), b64: Buffer.from('héllo').toString('base64'),
    b64url: Buffer.from([251, 255, 191]).toString('base64url'), latin1: Buffer.from('héllo', 'latin1').toString('hex'),
    fromHex: Buffer.from('68656c6c6f', 'hex').toString(), fromB64: Buffer.from('aGVsbG8=', 'base64').toString(),
    utf16: Buffer.from('hi', 'utf16le').toString('hex'), ascii: Buffer.from('hé', 'ascii').toString('hex'),
  }),
  'buffer-alloc-concat': () => {
    const a = Buffer.alloc(3, 'ab'); const b = Buffer.allocUnsafe(2).fill(7); const c = Buffer.concat([a, b], 4);
    return json({ a: [...a], b: [...b], c: [...c], len: Buffer.byteLength('héllo'), isBuf: [Buffer.isBuffer(c), Buffer.isBuffer(new Uint8Array(1))],
      isEnc: [Buffer.isEncoding('utf8'), Buffer.isEncoding('nope')], cmp: Buffer.compare(Buffer.from('a'), Buffer.from('b')) });
  },
  'buffer-read-write': () => {
    const b = Buffer.alloc(16);
    b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); b.writeDoubleLE(1.5, 6); b.writeUInt8(255, 14);
    return json({ hex: b.toString('hex'), u32: b.readUInt32BE(0), i16: b.readInt16LE(4), d: b.readDoubleLE(6), u8: b.readUInt8(14),
      big: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]).readBigUInt64BE(0).toString() });
  },
  'buffer-slice-search': () => {
    const b = Buffer.from('hello world');
    return json({ sub: b.subarray(6).toString(), slice: b.slice(0, 5).toString(), idx: b.indexOf('o'), last: b.lastIndexOf('o'),
      inc: b.includes('wor'), eq: b.equals(Buffer.from('hello world')), json: Buffer.from('hi').toJSON(), swap: [...Buffer.from([1, 2, 3, 4]).swap16()] });
  },
  'buffer-errors': () => json({
    range: err(() => Buffer.alloc(2).readUInt32BE(0)).slice(0, 2),
    writeRange: err(() => Buffer.alloc(1).writeUInt8(300, 0)).slice(0, 2),
    badArg: err(() => Buffer.from({})).slice(0, 1),
  }),
  'buffer-module-exports': () => json({
    kMaxLength: typeof bufferModule.kMaxLength, constants: typeof bufferModule.constants.MAX_LENGTH,
    atob: bufferModule.atob('aGk='), btoa: bufferModule.btoa('hi'), isUtf8: [bufferModule.isUtf8(Buffer.from('hé')), bufferModule.isUtf8(Buffer.from([0xff]))],
    isAscii: [bufferModule.isAscii(Buffer.from('ab')), bufferModule.isAscii(Buffer.from('é'))], same: bufferModule.Buffer === Buffer,
    inspectMax: bufferModule.INSPECT_MAX_BYTES,
  }),
  'buffer-global': () => json({ same: globalThis.Buffer === Buffer, instance: Buffer.from('x') instanceof Uint8Array, global: globalThis.global === globalThis }),
  // ---- events ----
  'events-basic': () => {
    const e = new EventEmitter(); const seen = [];
    e.on('a', (x) => seen.push('on ' + x)); e.once('a', (x) => seen.push('once ' + x)); e.prependListener('a', () => seen.push('first'));
    e.emit('a', 1); e.emit('a', 2);
    return json({ seen, count: e.listenerCount('a'), names: e.eventNames(), max: e.getMaxListeners(), emitNone: e.emit('nothing') });
  },
  'events-error': () => {
    const e = new EventEmitter(); const seen = [];
    e.on(errorMonitor, (x) => seen.push('monitor ' + x.message));
    const unhandled = err(() => e.emit('error', new Error('boom')));
    e.on('error', (x) => seen.push('handled ' + x.message)); e.emit('error', new Error('again'));
    return json({ unhandled, seen });
  },
  'events-once-promise': async () => {
    const e = new EventEmitter(); setTimeout(() => e.emit('ready', 1, 2), 1);
    const args = await once(e, 'ready');
    const e2 = new EventEmitter(); setTimeout(() => e2.emit('error', new Error('bad')), 1);
    return json({ args, rejected: await errAsync(once(e2, 'ready')), listeners: getEventListeners(e, 'ready').length });
  },
  'events-subclass': () => {
    class Thing extends EventEmitter { ping() { this.emit('pong', this.constructor.name); } }
    const t = new Thing(); let got; t.on('pong', (n) => { got = n; }); t.ping();
    return json({ got, isEE: t instanceof EventEmitter, removed: (t.removeAllListeners('pong'), t.listenerCount('pong')), static: EventEmitter.defaultMaxListeners });
  },
  // ---- async_hooks ----
  'als-run-await': async () => {
    const out = await als.run({ id: 1 }, async () => { const a = als.getStore().id; await null; await sleep(1); return [a, als.getStore().id]; });
    return json({ out, outside: als.getStore() ?? 'none' });
  },
  'als-nested-exit': () => json(als.run('outer', () => [als.getStore(), als.run('inner', () => als.getStore()), als.getStore(), als.exit(() => als.getStore() ?? 'none'), als.getStore()])),
  'als-interleaved': async () => {
    const task = (id, ms) => als.run(id, async () => { await sleep(ms); const a = als.getStore(); await Promise.resolve(); return [id, a, als.getStore()]; });
    return json(await Promise.all([task('a', 5), task('b', 1), task('c', 3)]));
  },
  'als-timers-microtasks': async () => {
    const seen = await als.run('t', () => new Promise((resolve) => {
      const out = [];
      setTimeout(() => { out.push('timeout ' + als.getStore()); resolve(out); }, 2);
      queueMicrotask(() => out.push('micro ' + als.getStore()));
      Promise.resolve().then(() => out.push('then ' + als.getStore()));
      process.nextTick(() => out.push('tick ' + als.getStore()));
    }));
    return json(seen);
  },
  'als-then-registration': async () => {
    let resolve; const p = new Promise((r) => { resolve = r; });
    const got = als.run('registered', () => p.then(() => als.getStore()));
    als.run('resolver', () => resolve());
    return json(await got);
  },
  'als-snapshot-bind': () => {
    const snap = als.run('snap', () => AsyncLocalStorage.snapshot());
    const bound = als.run('bound', () => AsyncLocalStorage.bind((x) => [x, als.getStore()]));
    return json({ snap: snap((x) => [x, als.getStore()], 1), bound: bound(2), outside: als.getStore() ?? 'none' });
  },
  'als-async-resource': () => {
    const r = als.run('res', () => new AsyncResource('Thing'));
    const f = als.run('b', () => AsyncResource.bind(() => als.getStore()));
    return json({ run: r.runInAsyncScope(function (a) { return [a, als.getStore(), this]; }, 'self', 1), bound: f(), ids: [r.asyncId(), r.triggerAsyncId()] });
  },
  'als-unsupported': () => json({ enterWith: err(() => als.enterWith(1)), disable: err(() => als.disable()), name: new AsyncLocalStorage({ name: 'n' }).name }),
  'als-host-callbacks': async (req, env) => {
    return json(await als.run('host', async () => {
      const out = [];
      const origin = req.headers.get('x-origin');
      const f = await fetch(origin + '/text'); out.push('fetch ' + als.getStore());
      const reader = f.body.getReader(); while (!(await reader.read()).done) { /* drain */ } out.push('fetch-body ' + als.getStore());
      const r = new Response('body text'); await r.text(); out.push('body ' + als.getStore());
      const stub = env.STORE.get(env.STORE.idFromName('x')); out.push('rpc ' + (await stub.read('k')) + ' ' + als.getStore());
      const rs = new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1])); c.close(); } });
      await rs.getReader().read(); out.push('stream ' + als.getStore());
      await crypto.subtle.digest('SHA-256', new Uint8Array(1)); out.push('subtle ' + als.getStore());
      return out;
    }));
  },
  // ---- crypto ----
  'crypto-hash': () => json({
    sha256: createHash('sha256').update('hello').update(' world').digest('hex'),
    md5: createHash('md5').update('abc').digest('base64'), sha1: createHash('SHA1').update(Buffer.from('x')).digest('hex'),
    sha512: createHash('sha512').update('').digest('hex').slice(0, 32), latin1: createHash('sha256').update('é', 'latin1').digest('hex'),
    oneShot: crypto.hash ? crypto.hash('sha1', 'abc') : 'absent', copy: (() => { const h = createHash('sha256').update('a'); const c = h.copy(); return [h.digest('hex').slice(0, 8), c.update('b').digest('hex').slice(0, 8)]; })(),
  }),
  'crypto-hmac': () => json({
    h256: createHmac('sha256', 'key').update('data').digest('hex'), h1: createHmac('sha1', Buffer.from('k')).update('d').digest('base64'),
    empty: createHmac('sha256', '').update('x').digest('hex'),
  }),
  'crypto-errors': () => json({
    badHash: err(() => createHash('nope')), twice: err(() => { const h = createHash('sha256'); h.digest(); h.digest(); })[1],
    tse: err(() => timingSafeEqual(Buffer.from('a'), Buffer.from('ab'))), badData: err(() => createHash('sha256').update(1))[1],
    badDigest: err(() => pbkdf2Sync('a', 'b', 1, 8, 'nope')),
  }),
  'crypto-random': () => {
    const r = randomBytes(16);
    const n = randomInt(10); const m = randomInt(5, 6);
    return json({ len: r.length, isBuf: Buffer.isBuffer(r), uuid: /^[0-9a-f-]{36}$/.test(randomUUID()), n: n >= 0 && n < 10, m,
      fill: crypto.randomFillSync(new Uint8Array(4)).length, neg: err(() => randomBytes(-1))[1] });
  },
  'crypto-kdf': () => json({
    pbkdf2: pbkdf2Sync('password', 'salt', 1000, 32, 'sha256').toString('hex'),
    pbkdf2Sha1: pbkdf2Sync(Buffer.from('pw'), 'salt', 1, 20, 'sha1').toString('hex'),
    hkdf: Buffer.from(hkdfSync('sha256', 'key', 'salt', 'info', 42)).toString('hex'),
    hkdfType: hkdfSync('sha256', 'key', '', '', 16) instanceof ArrayBuffer,
  }),
  'crypto-timing-safe-equal': () => json([timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')), timingSafeEqual(new Uint8Array([1]), new Uint8Array([2]))]),
  'crypto-webcrypto': async () => json({ same: crypto.webcrypto === globalThis.crypto, subtle: crypto.subtle === globalThis.crypto.subtle,
    digest: Buffer.from(await crypto.subtle.digest('SHA-1', Buffer.from('abc'))).toString('hex'), hashes: crypto.getHashes().includes('sha256') }),
  'crypto-callbacks': async () => json(await new Promise((resolve) => crypto.pbkdf2('p', 's', 2, 8, 'sha256', (e, k) => resolve([e, k.toString('hex')])))),
  // ---- stream ----
  'stream-readable': async () => {
    const r = Readable.from(['a', 'b', 'c']); const got = [];
    for await (const c of r) got.push(c);
    const r2 = new Readable({ read() { this.push('x'); this.push(null); } });
    const chunks = []; r2.on('data', (c) => chunks.push(c.toString())); await new Promise((res) => r2.on('end', res));
    return json({ got, chunks, readable: r2.readable, ended: r2.readableEnded });
  },
  'stream-writable': async () => {
    const parts = [];
    const w = new Writable({ write(chunk, enc, cb) { parts.push(chunk.toString()); cb(); } });
    w.write('a'); w.write(Buffer.from('b')); w.end('c');
    await new Promise((r) => w.on('finish', r));
    return json({ parts, finished: w.writableFinished, ended: w.writableEnded, afterEnd: await new Promise((r) => w.write('x', (e) => r(e && e.code))) });
  },
  'stream-transform-pipeline': async () => {
    const upper = new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); } });
    const out = [];
    await streamPromises.pipeline(Readable.from(['ab', 'cd']), upper, new Writable({ write(c, e, cb) { out.push(c.toString()); cb(); } }));
    return json(out);
  },
  'stream-pipeline-error': async () => {
    const bad = new Transform({ transform(chunk, enc, cb) { cb(new Error('transform failed')); } });
    const e = await new Promise((resolve) => pipeline(Readable.from(['x']), bad, new PassThrough(), (err) => resolve(err && err.message)));
    return json({ e });
  },
  'stream-duplex-passthrough': async () => {
    const pt = new PassThrough(); pt.end('through');
    const d = new Duplex({ read() { this.push('dup'); this.push(null); }, write(c, e, cb) { cb(); } });
    const text = async (s) => { let t = ''; for await (const c of s) t += c; return t; };
    return json({ pt: await text(pt), dup: await text(d), isDuplex: d instanceof Readable });
  },
  'stream-finished': async () => {
    const r = Readable.from(['a']); r.resume();
    const f = await new Promise((resolve) => finished(r, (e) => resolve(e ?? 'ok')));
    const r2 = new Readable({ read() {} }); setTimeout(() => r2.destroy(new Error('gone')), 1);
    return json({ f, destroyed: await errAsync(streamPromises.finished(r2)) });
  },
  'stream-object-mode': async () => {
    const got = []; const r = new Readable({ objectMode: true, read() {} }); r.push({ a: 1 }); r.push(2); r.push(null);
    for await (const o of r) got.push(o);
    return json({ got, hwm: new Readable().readableHighWaterMark, ohwm: new Readable({ objectMode: true }).readableHighWaterMark });
  },
  'stream-web-and-consumers': async () => json({
    same: streamWeb.ReadableStream === globalThis.ReadableStream, ws: streamWeb.WritableStream === globalThis.WritableStream,
    text: await consumers.text(Readable.from(['a', 'b'])), json: await consumers.json(Readable.from(['{"x":', '1}'])),
    buf: (await consumers.buffer(Readable.from([Buffer.from('hi')]))).toString('hex'),
  }),
  'stream-backpressure': () => {
    const w = new Writable({ highWaterMark: 4, write(c, e, cb) { setTimeout(cb, 1); } });
    return json([w.write('ab'), w.write('cd'), w.writableLength, w.writableNeedDrain]);
  },
  // ---- string_decoder ----
  'string-decoder': () => {
    const d = new StringDecoder('utf8'); const euro = Buffer.from('€');
    const parts = [d.write(euro.subarray(0, 1)), d.write(euro.subarray(1)), d.end()];
    const h = new StringDecoder('hex');
    return json({ parts, hex: h.write(Buffer.from([1, 255])), b64: new StringDecoder('base64').end(Buffer.from('hi')), incomplete: new StringDecoder().end(Buffer.from([0xe2])) });
  },
  // ---- util ----
  'util-format': () => json([format('%s is %d', 'x', 42), format('%i %f %j', '3.7', '1.5', { a: 1 }), format('%o', [1]), format('%%', 1), format('a', 'b', 3), format('%s', { a: { b: { c: 1 } } }), format('%c', 'css'), format(1, 2)]),
  'util-inspect': () => json([inspect({ a: 1, b: 'two', c: [1, 2, { d: 3 }] }), inspect(new Map([['k', 1]])), inspect(new Set([1])), inspect('str'),
    inspect([1, [2, [3, [4]]]], { depth: 1 }), inspect(null), inspect(Symbol('s')), inspect(() => {}), inspect(new Error('e')).split('\n')[0], inspect(Buffer.from('hi')), inspect({ [inspect.custom]: () => 'custom!' }), inspect(123n), inspect(new Date(0))]),
  'util-promisify-callbackify': async () => {
    const cbFn = (a, cb) => setTimeout(() => (a ? cb(null, a * 2) : cb(new Error('zero'))), 1);
    const p = promisify(cbFn);
    const cbd = callbackify(async (x) => x + 1);
    const viaCb = await new Promise((r) => cbd(1, (e, v) => r([e, v])));
    const custom = function () {}; custom[promisify.custom] = () => Promise.resolve('custom');
    return json({ ok: await p(2), fail: await errAsync(p(0)), viaCb, custom: await promisify(custom)(), same: promisify(custom) === custom[promisify.custom] });
  },
  'util-inherits-deprecate': () => {
    function A() {} A.prototype.hi = () => 'hi'; function B() { A.call(this); } inherits(B, A);
    const dep = util.deprecate(() => 'still works', 'old');
    return json({ hi: new B().hi(), super: B.super_ === A, dep: dep() });
  },
  'util-types': () => json({
    promise: types.isPromise(Promise.resolve()), date: types.isDate(new Date()), regexp: types.isRegExp(/x/), map: types.isMap(new Map()),
    set: types.isSet(new Set()), typed: types.isTypedArray(new Uint8Array()), u8: types.isUint8Array(Buffer.alloc(1)), ab: types.isArrayBuffer(new ArrayBuffer(1)),
    async: types.isAsyncFunction(async () => {}), gen: types.isGeneratorFunction(function* () {}), boxed: types.isBoxedPrimitive(Object(1)),
    native: types.isNativeError(new TypeError()), dv: types.isDataView(new DataView(new ArrayBuffer(1))), same: utilTypes.isMap === types.isMap,
    weak: types.isWeakMap(new WeakMap()), sab: types.isAnyArrayBuffer(new ArrayBuffer(1)),
  }),
  'util-deep-equal-misc': () => json({
    deep: [isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), isDeepStrictEqual([1], ['1']), isDeepStrictEqual(new Map([[1, 2]]), new Map([[1, 2]]))],
    enc: util.TextEncoder === globalThis.TextEncoder, dec: new util.TextDecoder().decode(new util.TextEncoder().encode('ü')),
    legacy: [util.isArray([]), util.isString('s'), util.isFunction(() => {}), util.isPrimitive(1), util.isBuffer(Buffer.alloc(0))],
    strip: util.stripVTControlCharacters('\u001b[31mred\u001b[39m'), usv: util.toUSVString('a\ud800b'),
  }),
  // ---- path ----
  'path-posix': () => json({
    join: path.join('/a', 'b', '../c', './d'), resolve: path.resolve('/x', 'y', '..', 'z'), norm: path.normalize('/a//b/../c/.'),
    rel: path.relative('/a/b/c', '/a/d'), dir: path.dirname('/a/b/c.txt'), base: [path.basename('/a/b/c.txt'), path.basename('/a/b/c.txt', '.txt')],
    ext: [path.extname('x.tar.gz'), path.extname('.bashrc'), path.extname('a.')], abs: [path.isAbsolute('/a'), path.isAbsolute('a')],
    parse: path.parse('/home/u/file.txt'), format: path.format({ dir: '/x', name: 'f', ext: '.js' }), sep: path.sep, delim: path.delimiter,
    posix: posix.join('a', 'b') === path.posix.join('a', 'b'),
  }),
  'path-errors': () => json({ join: err(() => path.join(1))[1], base: err(() => path.basename(null))[1] }),
  'path-cwd': () => json({ rel: path.resolve('x'), cwd: process.cwd() }),
  // ---- url ----
  'url-legacy-parse': () => {
    const u = url.parse('http://user:pw@Host.com:8080/p/a/t/h?query=string&a=1#hash', true);
    return json({ protocol: u.protocol, auth: u.auth, host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, query: u.query, hash: u.hash, href: u.href });
  },
  'url-format-resolve': () => json({
    format: url.format({ protocol: 'https', hostname: 'example.com', pathname: '/x', query: { a: '1', b: ['2', '3'] } }),
    resolve: [url.resolve('/one/two/three', 'four'), url.resolve('http://example.com/', '/one'), url.resolve('http://example.com/one', '../two')],
    whatwg: url.format(new URL('https://a:b@example.com/p?q=1#h'), { auth: false, fragment: false }),
    same: url.URL === globalThis.URL,
  }),
  'url-file-urls': () => json({
    toPath: fileURLToPath('file:///tmp/a%20b.txt'), toPathUrl: fileURLToPath(new URL('file:///x/y')), toUrl: pathToFileURL('/tmp/a b#c.txt').href,
    badScheme: err(() => fileURLToPath('http://x/'))[1], badHost: err(() => fileURLToPath('file://host/x'))[1], badPath: err(() => fileURLToPath('file:///a%2fb'))[1],
  }),
  // ---- querystring ----
  'querystring': () => json({
    parse: querystring.parse('a=1&b=2&b=3&c=%20x&d'), stringify: querystring.stringify({ a: [1, 2], b: 'x y', c: '', d: true }),
    sep: querystring.parse('a:1;b:2', ';', ':'), escape: querystring.escape('a b&c/ü'), unescape: querystring.unescape('a%20b%2'),
    decode: querystring.decode === querystring.parse,
  }),
  // ---- assert ----
  'assert-pass': () => { assert(true); assert.ok(1); assert.equal(1, 1); assert.deepEqual({ a: [1] }, { a: [1] }); strict.deepEqual({ a: 1 }, { a: 1 }); assert.throws(() => { throw new TypeError('x'); }, TypeError); assert.match('abc', /b/); return json('ok'); },
  'assert-failures': () => json({
    ok: err(() => assert.ok(false)).slice(0, 2), strictEqual: err(() => assert.strictEqual(1, 2)).slice(0, 2),
    deep: err(() => strict.deepEqual({ a: 1 }, { a: 2 })).slice(0, 2), msg: err(() => assert.equal(1, 2, 'custom message')),
    throwsWrong: err(() => assert.throws(() => {})).slice(0, 2), isError: err(() => assert.fail('f'))[0],
    instance: (() => { try { assert.fail('z'); } catch (e) { return [e instanceof assert.AssertionError, e.actual, e.expected, e.operator, e.generatedMessage]; } })(),
  }),
  // workerd's node:assert is the strict one: equal() compares with ===, deepEqual() strictly.
  'assert-strict-by-default': () => json({ equal: err(() => assert.equal(1, '1')).slice(0, 2), deep: err(() => assert.deepEqual({ a: 1 }, { a: '1' })).slice(0, 2), notEqual: err(() => assert.notEqual(1, '1')) }),
  'assert-rejects': async () => json({ rejects: await errAsync(assert.rejects(Promise.resolve(1))).then((r) => r.slice(0, 2)), ok: await assert.rejects(Promise.reject(new Error('x'))) ?? 'undefined', strictType: typeof assert.strict }),
  // ---- zlib ----
  'zlib-roundtrip-sync': () => {
    const input = Buffer.from('hello hello hello hello zlib '.repeat(10));
    const d = zlib.deflateSync(input), g = zlib.gzipSync(input), r = zlib.deflateRawSync(input);
    return json({ deflate: d.toString('base64'), gzip: g.toString('base64'), raw: r.toString('base64'),
      back: [zlib.inflateSync(d).equals(input), zlib.gunzipSync(g).equals(input), zlib.inflateRawSync(r).equals(input), zlib.unzipSync(g).equals(input), zlib.unzipSync(d).equals(input)] });
  },
  'zlib-levels': () => json({ l1: zlib.deflateSync('aaaaabbbbbaaaaa'.repeat(20), { level: 1 }).toString('hex'), l9: zlib.gzipSync('abcabcabc'.repeat(30), { level: 9 }).toString('hex'), l0: zlib.deflateSync('xyz', { level: 0 }).toString('hex') }),
  'zlib-errors': () => json({ bad: err(() => zlib.inflateSync(Buffer.from('not compressed'))), trunc: err(() => zlib.gunzipSync(zlib.gzipSync('hello world').subarray(0, 12))), badGzip: err(() => zlib.gunzipSync(Buffer.from('xx'))) }),
  'zlib-async-callbacks': async () => {
    const gz = await promisify(zlib.gzip)('async data');
    return json({ back: (await promisify(zlib.gunzip)(gz)).toString(), err: await errAsync(promisify(zlib.inflate)(Buffer.from('zz'))).then((r) => r.slice(0, 2)) });
  },
  'zlib-streams': async () => {
    const chunks = [];
    await streamPromises.pipeline(Readable.from([Buffer.from('stream '), Buffer.from('me')]), zlib.createGzip(), zlib.createGunzip(), new Writable({ write(c, e, cb) { chunks.push(c); cb(); } }));
    return json(Buffer.concat(chunks).toString());
  },
  'zlib-crc32-constants': () => json({ crc: zlib.crc32 ? [zlib.crc32('hello'), zlib.crc32('world', zlib.crc32('hello ')), zlib.crc32(Buffer.from('hello world'))] : 'absent',
    c: [zlib.constants.Z_BEST_COMPRESSION, zlib.constants.Z_SYNC_FLUSH, zlib.Z_DEFAULT_COMPRESSION ?? 'none'] }),
  'zlib-dictionary': () => {
    const dict = Buffer.from('hello world dictionary');
    const d = zlib.deflateSync('hello world hello', { dictionary: dict });
    return json({ d: d.toString('hex'), back: zlib.inflateSync(d, { dictionary: dict }).toString(), missing: err(() => zlib.inflateSync(d)).slice(0, 2) });
  },
  // ---- timers ----
  'timers-module': async () => {
    const order = [];
    const t = timers.setTimeout(() => order.push('timeout'), 1);
    const keys = ['ref', 'unref', 'hasRef', 'refresh', 'close'].map((k) => typeof t[k]);
    const cancelled = timers.setTimeout(() => order.push('cancelled'), 1); timers.clearTimeout(cancelled);
    timers.setImmediate(() => order.push('immediate'));
    await sleep(10);
    return json({ order: order.sort(), keys, hasRef: t.hasRef(), unref: t.unref().hasRef(), num: typeof +t });
  },
  'timers-promises': async () => {
    const v = await timersPromises.setTimeout(1, 'value');
    const i = await timersPromises.setImmediate('imm');
    const ac = new AbortController(); const p = timersPromises.setTimeout(1000, 'never', { signal: ac.signal }); ac.abort();
    const it = []; for await (const x of timersPromises.setInterval(1, 'tick')) { it.push(x); if (it.length === 3) break; }
    return json({ v, i, aborted: await errAsync(p), it });
  },
  'timers-globals': async () => {
    const out = [];
    const im = setImmediate((a) => out.push('imm ' + a), 'x');
    const cleared = setImmediate(() => out.push('cleared')); clearImmediate(cleared);
    await sleep(5);
    return json({ out, type: typeof im, hasRef: typeof im.hasRef });
  },
  // ---- process ----
  'process-env': (req, env) => json({ env: process.env, greeting: process.env.GREETING, same: processModule === process, envType: typeof processModule.env }),
  'process-basics': () => json({
    platform: process.platform, version: process.version, node: process.versions.node, title: process.title, argv: process.argv, arch: process.arch,
    pid: process.pid, cwd: process.cwd(), tag: Object.prototype.toString.call(process), ee: typeof process.on, features: process.features.tls,
    hr: [Array.isArray(process.hrtime()), typeof process.hrtime.bigint()], uptime: typeof process.uptime(), mem: process.memoryUsage().rss,
  }),
  'process-next-tick': async () => {
    const order = [];
    await new Promise((r) => { process.nextTick((a, b) => order.push('tick ' + a + b), 1, 2); queueMicrotask(() => order.push('micro')); setTimeout(() => r(), 1); });
    return json({ order, bad: err(() => process.nextTick(1))[1] });
  },
  'process-get-builtin': () => json({ buffer: process.getBuiltinModule('node:buffer').Buffer === Buffer, bare: process.getBuiltinModule('path') === path, missing: process.getBuiltinModule('node:nope') ?? 'undefined' }),
  'process-exit': () => { process.exit(3); return json('unreachable'); },
  // workerd cancels the request even when the code catches process.exit()'s throw.
  'process-exit-caught': () => { try { process.exit(4); } catch { /* ignored */ } return json('caught'); },
  'process-emit-warning': async () => {
    const got = await new Promise((r) => { process.once('warning', (w) => r([w.name, w.message])); process.emitWarning('careful', 'CustomWarning'); });
    return json(got);
  },
  // ---- diagnostics_channel ----
  'diagnostics-channel': () => {
    const seen = []; const ch = dc.channel('cellgate:test');
    const before = ch.hasSubscribers; const fn = (m, name) => seen.push([m, name]);
    dc.subscribe('cellgate:test', fn); ch.publish({ n: 1 }); const during = dc.hasSubscribers('cellgate:test');
    dc.unsubscribe('cellgate:test', fn); ch.publish({ n: 2 });
    return json({ seen, before, during, after: ch.hasSubscribers, same: dc.channel('cellgate:test') === ch, isChannel: ch instanceof dc.Channel });
  },
  'diagnostics-tracing': async () => {
    const events = []; const tc = dc.tracingChannel('cellgate:op');
    tc.subscribe({ start: () => events.push('start'), end: () => events.push('end'), asyncStart: () => events.push('asyncStart'), asyncEnd: () => events.push('asyncEnd'), error: () => events.push('error') });
    const sync = tc.traceSync(() => 5);
    const prom = await tc.tracePromise(async () => 6);
    return json({ sync, prom, events });
  },
  'diagnostics-store': () => {
    const ch = dc.channel('cellgate:store'); ch.bindStore(als, (d) => ({ from: d }));
    return json(ch.runStores('data', () => als.getStore()));
  },
  // ---- os ----
  'os-module': () => json({ eol: os.EOL, platform: os.platform(), type: os.type(), arch: os.arch(), endianness: os.endianness(), cpus: os.cpus(), tmpdir: os.tmpdir(), homedir: os.homedir(), hostname: os.hostname(), loadavg: os.loadavg(), parallel: os.availableParallelism(), devNull: os.devNull, setPriority: err(() => os.setPriority())[1] }),
  // ---- punycode ----
  'punycode': () => json({ enc: punycode.encode('mañana'), dec: punycode.decode('maana-pta'), ascii: punycode.toASCII('mañana.com'), uni: punycode.toUnicode('xn--maana-pta.com'), ucs2: punycode.ucs2.decode('☃') }),
  // ---- resolution ----
  'bare-and-prefixed-same': async () => {
    const pairs = ['buffer', 'events', 'util', 'path', 'stream', 'crypto', 'url', 'zlib', 'assert', 'os', 'querystring', 'string_decoder', 'timers', 'diagnostics_channel', 'async_hooks', 'process', 'punycode'];
    const out = {};
    for (const n of pairs) out[n] = (await import(n)).default === (await import('node:' + n)).default;
    return json(out);
  },
  'dynamic-import-namespace': async () => {
    const m = await import('node:path');
    return json({ hasDefault: 'default' in m, join: m.join('a', 'b'), sameFn: m.join === m.default.join });
  },
  'sys-alias': async () => json({ same: (await import('node:sys')).default === util, format: (await import('sys')).format('%d', 7) }),
  'not-implemented-module': async () => json({ net: await errAsync(import('node:net')), http: await errAsync(import('http')) }),
  'absent-module': async () => json({ child: await errAsync(import('node:child_process')), bareChild: await errAsync(import('child_process')), unknown: await errAsync(import('node:nope')) }),
};

export default {
  async fetch(req, env) {
    const name = new URL(req.url).pathname.split('/')[2];
    const c = cases[name];
    if (!c) return new Response('no case ' + name, { status: 404 });
    return c(req, env);
  },
};
