// Headers: case-insensitive, iterated as workerd does (names lower-cased and sorted, values of a
// repeated name joined by ", ", except set-cookie which stays one entry per cookie).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kList = Symbol('Headers.list');
  const kLines = Symbol('Headers.lines');
  const kGuard = Symbol('Headers.guard');
  const kEntriesList = Symbol('Headers.entriesList');
  const kCheck = Symbol('Headers.check');
  const kSorted = Symbol('Headers.sorted');
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function normalizeName(name) {
    name = String(name);
    if (!TOKEN.test(name)) throw new TypeError('Invalid header name: ' + JSON.stringify(name));
    return name.toLowerCase();
  }
  function normalizeValue(value) {
    value = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (/[\0\r\n]/.test(value)) throw new TypeError('Invalid header value.');
    return value;
  }

  class Headers {
    // [lowerName, value] pairs in insertion order. Request headers from the host arrive as one
    // string (see HeaderLines.java) and are split only if the Worker looks at them.
    [kList];
    [kLines] = null;
    [kGuard] = 'none';
    constructor(init = undefined) {
      this[kList] = [];
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        this[kList] = init[kEntriesList]().map(([k, v]) => [k, v]);
      } else if (typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = typeof pair === 'string' ? [pair] : [...pair];
          if (p.length !== 2) throw new TypeError('Invalid header: a header entry must be a [name, value] pair');
          this.append(p[0], p[1]);
        }
      } else if (typeof init === 'object') {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
      }
    }
    [kEntriesList]() {
      if (this[kLines] !== null) {
        const lines = this[kLines];
        this[kLines] = null;
        if (lines !== '') {
          for (const line of lines.split('\n')) {
            const c = line.indexOf(':');
            this[kList].push([line.slice(0, c).toLowerCase(), line.slice(c + 1)]);
          }
        }
      }
      return this[kList];
    }
    [kCheck]() { if (this[kGuard] === 'immutable') throw new TypeError("Can't modify immutable headers."); }
    append(name, value) {
      this[kCheck]();
      this[kEntriesList]().push([normalizeName(name), normalizeValue(value)]);
    }
    delete(name) {
      this[kCheck]();
      const n = normalizeName(name);
      this[kList] = this[kEntriesList]().filter(([k]) => k !== n);
    }
    get(name) {
      const n = normalizeName(name);
      let out = null;
      for (const [k, v] of this[kEntriesList]()) if (k === n) out = out === null ? v : out + ', ' + v;
      return out;
    }
    getAll(name) {
      const n = normalizeName(name);
      if (n !== 'set-cookie') throw new TypeError('getAll() can only be used with the header name "Set-Cookie".');
      return this.getSetCookie();
    }
    getSetCookie() { return this[kEntriesList]().filter(([k]) => k === 'set-cookie').map(([, v]) => v); }
    has(name) { const n = normalizeName(name); return this[kEntriesList]().some(([k]) => k === n); }
    set(name, value) {
      this[kCheck]();
      const n = normalizeName(name);
      const v = normalizeValue(value);
      const list = this[kEntriesList]();
      const i = list.findIndex(([k]) => k === n);
      if (i < 0) { list.push([n, v]); return; }
      list[i] = [n, v];
      this[kList] = list.filter(([k], j) => j <= i || k !== n);
    }
    [kSorted]() {
      const byName = new Map();
      const cookies = [];
      for (const [k, v] of this[kEntriesList]()) {
        if (k === 'set-cookie') cookies.push(v);
        else byName.set(k, byName.has(k) ? byName.get(k) + ', ' + v : v);
      }
      const out = [...byName];
      for (const c of cookies) out.push(['set-cookie', c]);
      return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    forEach(fn, thisArg) { for (const [k, v] of this[kSorted]()) fn.call(thisArg, v, k, this); }
    *entries() { yield* this[kSorted](); }
    *keys() { for (const [k] of this[kSorted]()) yield k; }
    *values() { for (const [, v] of this[kSorted]()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    static {
      internal.headersFromLines = (lines, guard) => {
        const h = new Headers();
        h[kLines] = lines;
        h[kGuard] = guard;
        return h;
      };
      internal.headersGuard = (h, guard) => { h[kGuard] = guard; };
      // To the host: name:value lines, one entry per header (set-cookie included), in iteration order.
      internal.headersToLines = (h) => {
        if (h[kLines] !== null) return h[kLines];
        let out = '';
        for (const [k, v] of h[kSorted]()) out += (out === '' ? '' : '\n') + k + ':' + v;
        return out;
      };
      internal.headersList = (h) => h[kEntriesList]();
    }
  }
  internal.defineGlobal('Headers', Headers);
});
