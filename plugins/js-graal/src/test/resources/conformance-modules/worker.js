// The multi-module conformance fixture (ModulesConformanceTest): ES modules, CommonJS (lib/*.cjs by
// the rules in cases.json), Text, Data and CompiledWasm, each case answering one JSON body.
import text from './data/hello.txt';
import html from './data/page.html';
import data from './data/blob.bin';
import util from './lib/util.cjs';
import * as utilNs from './lib/util.cjs';
import greet from './lib/fn.cjs';
import scope from './lib/scope.cjs';
import errors from './lib/errors.cjs';
import cyc from './lib/cyc1.cjs';
import reassign from './lib/reassign.cjs';
import calc from './wasm/calc.wasm';
import hash from './wasm/hash.wasm';

const describe = (e) => (e instanceof Error || (e && typeof e.name === 'string') ? e.constructor.name + '|' + e.name + ': ' + e.message : 'threw ' + String(e));
async function attempt(f) { try { const r = await f(); return 'ok ' + String(r); } catch (e) { return describe(e); } }

function newInstance(extra) {
  const logged = [];
  const env = { log: (v) => { logged.push(v); }, thrower: () => { throw new RangeError('from the import'); }, ...extra };
  return { inst: new WebAssembly.Instance(calc, { env }), logged };
}

const CASES = {
  'text-default': () => [typeof text, text],
  'text-html': () => [typeof html, html],
  'data-default': () => [Object.prototype.toString.call(data), data.byteLength, new Uint8Array(data).join(',')],
  'data-same-object': async () => (await import('./data/blob.bin')).default === data,
  'cjs-default': () => util,
  'cjs-namespace-keys': () => [Object.keys(utilNs), utilNs.default === util],
  'cjs-function-export': () => [greet('you'), greet.extra, greet.name],
  'cjs-scope': () => scope,
  'cjs-require-errors': () => errors,
  'cjs-cycle': () => cyc,
  'cjs-reassign': () => reassign,
  'cjs-throws-twice': async () => [await attempt(() => import('./lib/thrower.cjs')), await attempt(() => import('./lib/thrower.cjs'))],
  'cjs-dynamic-import': async () => { const m = await import('./lib/leaf.cjs'); return [Object.keys(m), m.default.leaf]; },
  'import-missing': async () => attempt(() => import('./data/nope.txt')),
  'import-wrong-name': async () => { try { await import('./lib/wrong-import.js'); return 'loaded'; } catch (e) { return e.name; } },
  'wasm-module': () => [Object.prototype.toString.call(calc), calc instanceof WebAssembly.Module, typeof WebAssembly.Module],
  'wasm-descriptors': () => [WebAssembly.Module.exports(calc), WebAssembly.Module.imports(calc)],
  'wasm-custom-sections': () => WebAssembly.Module.customSections(calc, 'name').length,
  'wasm-instantiate': async () => { const i = await WebAssembly.instantiate(calc, { env: { log() {}, thrower() {} } }); return [Object.prototype.toString.call(i), i instanceof WebAssembly.Instance, i.exports.add(40, 2)]; },
  'wasm-exports-object': () => { const { inst } = newInstance(); const e = inst.exports; return [Object.isFrozen(e), Object.getPrototypeOf(e), Object.keys(e)]; },
  'wasm-function-shape': () => { const { inst } = newInstance(); const f = inst.exports.add; return [typeof f, f.name, f.length, f(2, 3), f('7', 1.9), f(2 ** 31, 0)]; },
  'wasm-memory-shared': () => {
    const { inst } = newInstance();
    const view = new Uint8Array(inst.exports.memory.buffer);
    inst.exports.store(100, 0x01020304);
    view[200] = 9;
    return [new TextDecoder().decode(view.subarray(16, 26)), view[100], view[103], inst.exports.load(200), new TextDecoder().decode(view.subarray(0, 4))];
  },
  'wasm-memory-grow': () => {
    const { inst } = newInstance();
    const mem = inst.exports.memory;
    const before = mem.buffer;
    const old = new Uint8Array(before);
    const r = [before.byteLength, inst.exports.grow(1), mem.buffer.byteLength, before.byteLength, old.length, mem.buffer === before, inst.exports.size()];
    r.push(mem.grow(1), mem.buffer.byteLength, inst.exports.grow(5));
    return r;
  },
  'wasm-memory-grow-limit': async () => { const { inst } = newInstance(); return attempt(() => inst.exports.memory.grow(10)); },
  'wasm-import-called': () => { const { inst, logged } = newInstance(); inst.exports.callLog(42); inst.exports.callLog(-1); return logged; },
  'wasm-import-throws': async () => { const { inst } = newInstance(); return attempt(() => inst.exports.callThrower()); },
  'wasm-trap-unreachable': async () => { const { inst } = newInstance(); return attempt(() => inst.exports.trap()); },
  'wasm-trap-divide': async () => { const { inst } = newInstance(); return [await attempt(() => inst.exports.div(1, 0)), await attempt(() => inst.exports.div(-2147483648, -1))]; },
  'wasm-trap-memory': async () => { const { inst } = newInstance(); return attempt(() => inst.exports.load(65535 * 4)); },
  'wasm-trap-table': async () => { const { inst } = newInstance(); return [await attempt(() => inst.exports.callTable(0, 6, 7)), await attempt(() => inst.exports.callTable(1, 6, 7)), await attempt(() => inst.exports.callTable(5, 1, 1))]; },
  'wasm-stack-overflow': async () => { const { inst } = newInstance(); return attempt(() => inst.exports.recurse(1)); },
  'wasm-i64': async () => { const { inst } = newInstance(); const a = inst.exports.add64; return [typeof a(1n, 2n), String(a(9007199254740993n, 1n)), String(a(2n ** 63n - 1n, 1n)), await attempt(() => a(1, 2))]; },
  'wasm-f32': () => { const { inst } = newInstance(); return [inst.exports.f32id(0.1), inst.exports.f32id(1e40), String(inst.exports.f32id(NaN))]; },
  'wasm-globals': async () => {
    const { inst } = newInstance();
    const c = inst.exports.counter;
    const r = [Object.prototype.toString.call(c), c.value, inst.exports.bump(), c.value, String(inst.exports.answer.value), typeof inst.exports.answer.value];
    c.value = 100;
    r.push(inst.exports.bump(), await attempt(() => { inst.exports.answer.value = 1n; }));
    return r;
  },
  'wasm-global-new': async () => {
    const g = new WebAssembly.Global({ value: 'i32', mutable: true }, 4);
    g.value = 9;
    const f = new WebAssembly.Global({ value: 'f64' }, 1.5);
    return [g.value, g.valueOf(), f.value, String(new WebAssembly.Global({ value: 'i64' }, 5n).value), await attempt(() => { f.value = 2; })];
  },
  'wasm-memory-new': async () => {
    const m = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    return [Object.prototype.toString.call(m), m.buffer.byteLength, m.grow(1), m.buffer.byteLength, await attempt(() => m.grow(1)), await attempt(() => new WebAssembly.Memory({}))];
  },
  'wasm-table': () => {
    const { inst } = newInstance();
    const t = inst.exports.table;
    const f = t.get(1);
    return [Object.prototype.toString.call(t), t.length, typeof t.get(0), t.get(0)(2, 3), f(6, 7), t.grow(1), t.length, t.get(2)];
  },
  'wasm-table-new': async () => { const t = new WebAssembly.Table({ initial: 2, element: 'anyfunc' }); return [t.length, t.get(1), await attempt(() => t.get(5))]; },
  'wasm-compile-refused': async () => attempt(() => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))),
  'wasm-new-module-refused': async () => attempt(() => new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))),
  'wasm-instantiate-bytes-refused': async () => attempt(() => WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))),
  'wasm-streaming-absent': () => [typeof WebAssembly.compileStreaming, typeof WebAssembly.instantiateStreaming],
  'wasm-validate': () => [WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])), WebAssembly.validate(new Uint8Array([1, 2, 3])), WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]).buffer)],
  'wasm-imports-missing': async () => [await attempt(() => new WebAssembly.Instance(calc)), await attempt(() => WebAssembly.instantiate(calc))],
  'wasm-import-not-callable': async () => [await attempt(() => new WebAssembly.Instance(calc, { env: { log: 5, thrower() {} } })), await attempt(() => new WebAssembly.Instance(calc, { env: 1 }))],
  'wasm-error-classes': () => ['CompileError', 'LinkError', 'RuntimeError'].map((n) => { const e = new WebAssembly[n]('m'); return [e instanceof Error, e.name, e.message, String(e), Object.prototype.toString.call(e)].join(' '); }),
  'c-hash': () => {
    const { exports } = new WebAssembly.Instance(hash, {});
    const bytes = new TextEncoder().encode('hello from C');
    const p = exports.alloc(bytes.length);
    new Uint8Array(exports.memory.buffer).set(bytes, p);
    let h = 2166136261;
    for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
    return [exports.fnv1a(p, bytes.length) >>> 0, h];
  },
  'c-grow-refreshes-views': () => {
    // the wasm-bindgen pattern: a cached view, refreshed when memory.grow (inside Wasm) detached it
    const { exports } = new WebAssembly.Instance(hash, {});
    let view = new Uint8Array(exports.memory.buffer);
    const before = view.byteLength;
    const p = exports.alloc(300000);
    const detached = view.byteLength === 0;
    if (detached) view = new Uint8Array(exports.memory.buffer);
    view.fill(7, p, p + 300000);
    return [before, detached, view.byteLength, exports.fnv1a(p, 300000) >>> 0];
  },
  'wasm-instantiate-wrong-type': async () => [await attempt(() => WebAssembly.instantiate({})), await attempt(() => new WebAssembly.Instance({}))],
};

export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.slice('/case/'.length);
    const c = CASES[name];
    if (c === undefined) return new Response('no case ' + name, { status: 404 });
    try {
      return Response.json({ result: await c() });
    } catch (e) {
      return Response.json({ threw: describe(e) }, { status: 500 });
    }
  },
};
