// URLSearchParams (application/x-www-form-urlencoded), kept in sync with its URL.
(function (host, internal) {
  'use strict';
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
    #list = [];
    #update = null;
    constructor(init = '') {
      if (init instanceof URLSearchParams) {
        this.#list = init.#list.map(([k, v]) => [k, v]);
      } else if (init !== null && typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) throw new TypeError("Failed to construct 'URLSearchParams': Sequence initializer must only contain pair elements");
          this.#list.push([String(p[0]), String(p[1])]);
        }
      } else if (init !== null && typeof init === 'object') {
        for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
      } else {
        let s = String(init);
        if (s[0] === '?') s = s.slice(1);
        this.#list = parseForm(s);
      }
    }
    #changed() { if (this.#update) this.#update(this.toString()); }
    get size() { return this.#list.length; }
    append(name, value) { this.#list.push([String(name), String(value)]); this.#changed(); }
    delete(name, value) {
      name = String(name);
      this.#list = this.#list.filter(([k, v]) => !(k === name && (value === undefined || v === String(value))));
      this.#changed();
    }
    get(name) { name = String(name); const e = this.#list.find(([k]) => k === name); return e ? e[1] : null; }
    getAll(name) { name = String(name); return this.#list.filter(([k]) => k === name).map(([, v]) => v); }
    has(name, value) { name = String(name); return this.#list.some(([k, v]) => k === name && (value === undefined || v === String(value))); }
    set(name, value) {
      name = String(name); value = String(value);
      const i = this.#list.findIndex(([k]) => k === name);
      if (i < 0) this.#list.push([name, value]);
      else { this.#list[i][1] = value; this.#list = this.#list.filter(([k], j) => j <= i || k !== name); }
      this.#changed();
    }
    sort() {
      this.#list = this.#list.map((e, i) => [e, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([e]) => e);
      this.#changed();
    }
    forEach(fn, thisArg) { for (const [k, v] of this.#list.slice()) fn.call(thisArg, v, k, this); }
    *entries() { for (const [k, v] of this.#list.slice()) yield [k, v]; }
    *keys() { for (const [k] of this.#list.slice()) yield k; }
    *values() { for (const [, v] of this.#list.slice()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this.#list.map(([k, v]) => encodeForm(k) + '=' + encodeForm(v)).join('&'); }
    static {
      internal.paramsBind = (p, update) => { p.#update = update; };
      internal.paramsReset = (p, q) => { p.#list = parseForm(q); };
    }
  }
  internal.defineGlobal('URLSearchParams', URLSearchParams);
});
