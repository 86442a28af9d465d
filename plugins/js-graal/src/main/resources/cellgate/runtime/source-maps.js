// Stack traces of a bundle that ships source maps (upload_source_maps, SPEC §14): the frames of
// a module with a map name the original file, line and column from the map's `sources`, as
// workerd reports them (`at deep (src/lib/deep.ts:12:9)`). Loaded only for such bundles.
//
// GraalJS has no Error.prepareStackTrace without an experimental option, so `err.stack` is
// rewritten when an error is constructed (the Error constructors are wrapped in a Proxy whose
// `construct` maps the new error's stack: instanceof, subclasses and `e.constructor` are kept),
// and every stack the host logs is mapped (errors.js: errorParts). An error the engine itself
// throws (a TypeError from `null.x`) keeps GraalJS's own `stack` but is mapped when logged.
//
// The mappings are decoded by hand (Base64 VLQ, source map v3: ~40 lines), once per map and
// context, at the first error: no dependency, and no cost for a bundle that never throws.
(function (host, internal) {
  'use strict';
  const files = host.bundleModules();
  const decoded = new Map(); // module path -> { sources, lines } or null (no usable map)
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  function decode(mappings) {
    const digits = new Int8Array(128).fill(-1);
    for (let i = 0; i < B64.length; i++) digits[B64.charCodeAt(i)] = i;
    const lines = [];
    let segs = [];
    let src = 0; let line = 0; let col = 0;
    let i = 0;
    while (i <= mappings.length) {
      const c = mappings[i];
      if (i === mappings.length || c === ';') { lines.push(segs); segs = []; i++; continue; }
      if (c === ',') { i++; continue; }
      const seg = [];
      while (i < mappings.length && mappings[i] !== ',' && mappings[i] !== ';') {
        let value = 0; let shift = 0; let digit;
        do {
          digit = digits[mappings.charCodeAt(i++)];
          if (digit < 0) throw new Error('bad source map mappings');
          value += (digit & 31) * 2 ** shift;
          shift += 5;
        } while (digit & 32);
        seg.push(value & 1 ? -Math.floor(value / 2) : Math.floor(value / 2));
      }
      const genCol = (segs.length === 0 ? 0 : segs[segs.length - 1][0]) + seg[0];
      if (seg.length >= 4) {
        src += seg[1]; line += seg[2]; col += seg[3];
        segs.push([genCol, src, line, col]);
      } else {
        segs.push([genCol, -1, 0, 0]);
      }
    }
    return lines;
  }

  function mapFor(path) {
    if (decoded.has(path)) return decoded.get(path);
    let m = null;
    const text = files.sourceMap(path);
    if (text !== null) {
      try {
        const json = JSON.parse(text);
        m = { sources: json.sources || [], lines: decode(String(json.mappings || '')) };
      } catch (e) {
        m = null; // an unreadable map leaves the frames as they are
      }
    }
    decoded.set(path, m);
    return m;
  }

  // `/bundle/index.js`, 1-based line and column -> `src/lib/deep.ts:12:9`, or null
  function original(path, line, column) {
    const m = mapFor(path);
    if (m === null) return null;
    const segs = m.lines[line - 1];
    if (segs === undefined) return null;
    let best = null;
    for (const s of segs) {
      if (s[0] <= column - 1) best = s; else break;
    }
    if (best === null || best[1] < 0) return null;
    return m.sources[best[1]] + ':' + (best[2] + 1) + ':' + (best[3] + 1);
  }

  const FRAME = /(\/bundle\/[^\s():]+):(\d+):(\d+)/g;
  const SELF = 'cellgate:runtime/source-maps.js';
  function mapStack(stack) {
    if (typeof stack !== 'string') return stack;
    // (the Proxy's construct trap below is a frame of every stack it maps: not the Worker's)
    const lines = stack.split('\n').filter((l) => !l.includes(SELF));
    return lines.join('\n').replace(FRAME, (all, path, line, column) => original(path, Number(line), Number(column)) ?? all);
  }

  const NAMES = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError'];
  internal.installSourceMaps = function () {
    internal.stackMapper = mapStack;
    for (const name of NAMES) {
      const C = globalThis[name];
      if (typeof C !== 'function') continue;
      const P = new Proxy(C, {
        construct(target, args, newTarget) {
          const e = Reflect.construct(target, args, newTarget === P ? target : newTarget);
          const s = e.stack;
          if (typeof s === 'string') Object.defineProperty(e, 'stack', { value: mapStack(s), writable: true, configurable: true, enumerable: false });
          return e;
        },
        apply(target, self, args) {
          return Reflect.construct(P, args, P); // Error('x') without `new` constructs too
        },
      });
      Object.defineProperty(C.prototype, 'constructor', { value: P, writable: true, configurable: true, enumerable: false });
      Object.defineProperty(globalThis, name, { value: P, writable: true, configurable: true, enumerable: false });
    }
  };
});
