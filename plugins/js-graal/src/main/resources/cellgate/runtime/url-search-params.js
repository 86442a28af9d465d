// URLSearchParams (application/x-www-form-urlencoded), kept in sync with its URL.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kList = Symbol('URLSearchParams.list');
  const kUpdate = Symbol('URLSearchParams.update');
  const kChanged = Symbol('URLSearchParams.changed');
  const FORM = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    FORM[c] = /[A-Za-z0-9*\-._]/.test(ch) ? 0 : 1;
  }

  function encodeForm(s) {
    let out = '';
    for (const b of internal.encoder.encode(String(s))) {
      if (b === 0x20) out += '+';
      else if (b < 128 && !FORM[b]) out += String.fromCharCode(b);
      else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
    return out;
  }
  function decodeForm(s) {
    return internal.decoder.decode(internal.percentDecodeBytes(s.replace(/\+/g, ' ')));
  }
  function parseForm(q) {
    const list = [];
    for (const part of q.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      list.push(eq < 0 ? [decodeForm(part), ''] : [decodeForm(part.slice(0, eq)), decodeForm(part.slice(eq + 1))]);
    }
    return list;
  }
  internal.encodeForm = encodeForm;

  class URLSearchParams {
    [kList] = [];
    [kUpdate] = null;
    constructor(init = '') {
      if (init instanceof URLSearchParams) {
        this[kList] = init[kList].map(([k, v]) => [k, v]);
      } else if (init !== null && typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) throw new TypeError("Failed to construct 'URLSearchParams': Sequence initializer must only contain pair elements");
          this[kList].push([String(p[0]), String(p[1])]);
        }
      } else if (init !== null && typeof init === 'object') {
        for (const k of Object.keys(init)) this[kList].push([k, String(init[k])]);
      } else {
        let s = String(init);
        if (s[0] === '?') s = s.slice(1);
        this[kList] = parseForm(s);
      }
    }
    [kChanged]() { if (this[kUpdate]) this[kUpdate](this.toString()); }
    get size() { return this[kList].length; }
    append(name, value) { this[kList].push([String(name), String(value)]); this[kChanged](); }
    delete(name, value) {
      name = String(name);
      this[kList] = this[kList].filter(([k, v]) => !(k === name && (value === undefined || v === String(value))));
      this[kChanged]();
    }
    get(name) { name = String(name); const e = this[kList].find(([k]) => k === name); return e ? e[1] : null; }
    getAll(name) { name = String(name); return this[kList].filter(([k]) => k === name).map(([, v]) => v); }
    has(name, value) { name = String(name); return this[kList].some(([k, v]) => k === name && (value === undefined || v === String(value))); }
    set(name, value) {
      name = String(name); value = String(value);
      const i = this[kList].findIndex(([k]) => k === name);
      if (i < 0) this[kList].push([name, value]);
      else { this[kList][i][1] = value; this[kList] = this[kList].filter(([k], j) => j <= i || k !== name); }
      this[kChanged]();
    }
    sort() {
      this[kList] = this[kList].map((e, i) => [e, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([e]) => e);
      this[kChanged]();
    }
    forEach(fn, thisArg) { for (const [k, v] of this[kList].slice()) fn.call(thisArg, v, k, this); }
    *entries() { for (const [k, v] of this[kList].slice()) yield [k, v]; }
    *keys() { for (const [k] of this[kList].slice()) yield k; }
    *values() { for (const [, v] of this[kList].slice()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this[kList].map(([k, v]) => encodeForm(k) + '=' + encodeForm(v)).join('&'); }
    static {
      internal.paramsBind = (p, update) => { p[kUpdate] = update; };
      internal.paramsReset = (p, q) => { p[kList] = parseForm(q); };
    }
  }
  internal.defineGlobal('URLSearchParams', URLSearchParams);
});
