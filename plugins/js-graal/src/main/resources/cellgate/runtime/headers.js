// Headers: case-insensitive, iterated as workerd does (names lower-cased and sorted, values of a
// repeated name joined by ", ", except set-cookie which stays one entry per cookie).
(function (host, internal) {
  'use strict';
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
    #list;
    #lines = null;
    #guard = 'none';
    constructor(init = undefined) {
      this.#list = [];
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        this.#list = init.#entriesList().map(([k, v]) => [k, v]);
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
    #entriesList() {
      if (this.#lines !== null) {
        const lines = this.#lines;
        this.#lines = null;
        if (lines !== '') {
          for (const line of lines.split('\n')) {
            const c = line.indexOf(':');
            this.#list.push([line.slice(0, c).toLowerCase(), line.slice(c + 1)]);
          }
        }
      }
      return this.#list;
    }
    #check() { if (this.#guard === 'immutable') throw new TypeError("Can't modify immutable headers."); }
    append(name, value) {
      this.#check();
      this.#entriesList().push([normalizeName(name), normalizeValue(value)]);
    }
    delete(name) {
      this.#check();
      const n = normalizeName(name);
      this.#list = this.#entriesList().filter(([k]) => k !== n);
    }
    get(name) {
      const n = normalizeName(name);
      let out = null;
      for (const [k, v] of this.#entriesList()) if (k === n) out = out === null ? v : out + ', ' + v;
      return out;
    }
    getAll(name) {
      const n = normalizeName(name);
      if (n !== 'set-cookie') throw new TypeError('getAll() can only be used with the header name "Set-Cookie".');
      return this.getSetCookie();
    }
    getSetCookie() { return this.#entriesList().filter(([k]) => k === 'set-cookie').map(([, v]) => v); }
    has(name) { const n = normalizeName(name); return this.#entriesList().some(([k]) => k === n); }
    set(name, value) {
      this.#check();
      const n = normalizeName(name);
      const v = normalizeValue(value);
      const list = this.#entriesList();
      const i = list.findIndex(([k]) => k === n);
      if (i < 0) { list.push([n, v]); return; }
      list[i] = [n, v];
      this.#list = list.filter(([k], j) => j <= i || k !== n);
    }
    #sorted() {
      const byName = new Map();
      const cookies = [];
      for (const [k, v] of this.#entriesList()) {
        if (k === 'set-cookie') cookies.push(v);
        else byName.set(k, byName.has(k) ? byName.get(k) + ', ' + v : v);
      }
      const out = [...byName];
      for (const c of cookies) out.push(['set-cookie', c]);
      return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    forEach(fn, thisArg) { for (const [k, v] of this.#sorted()) fn.call(thisArg, v, k, this); }
    *entries() { yield* this.#sorted(); }
    *keys() { for (const [k] of this.#sorted()) yield k; }
    *values() { for (const [, v] of this.#sorted()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    static {
      internal.headersFromLines = (lines, guard) => {
        const h = new Headers();
        h.#lines = lines;
        h.#guard = guard;
        return h;
      };
      internal.headersGuard = (h, guard) => { h.#guard = guard; };
      // To the host: name:value lines, one entry per header (set-cookie included), in iteration order.
      internal.headersToLines = (h) => {
        if (h.#lines !== null) return h.#lines;
        let out = '';
        for (const [k, v] of h.#sorted()) out += (out === '' ? '' : '\n') + k + ':' + v;
        return out;
      };
      internal.headersList = (h) => h.#entriesList();
    }
  }
  internal.defineGlobal('Headers', Headers);
});
