// URL: a WHATWG URL parser (special and non-special schemes, relative resolution, IPv4/IPv6
// hosts, percent-encoding sets, dot segments) and the URL class over it. Hosts are lower-cased
// ASCII; a non-ASCII host (IDNA) is refused with a TypeError naming it rather than mis-encoded.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kRec = Symbol('URL.rec');
  const kParams = Symbol('URL.params');
  const SPECIAL = { 'ftp:': '21', 'file:': '', 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };
  const enc = internal.encoder;

  function encodeSet(extra) {
    const set = new Uint8Array(128);
    for (let c = 0; c < 0x20; c++) set[c] = 1;
    set[0x7f] = 1;
    for (const ch of extra) set[ch.charCodeAt(0)] = 1;
    return set;
  }
  const FRAGMENT = encodeSet(' "<>`');
  const QUERY = encodeSet(' "#<>');
  const SPECIAL_QUERY = encodeSet(' "#<>\'');
  const PATH = encodeSet(' "#<>?^`{}');
  const USERINFO = encodeSet(' "#<>?^`{}/:;=@[\\]|');
  const C0 = encodeSet('');
  internal.encodeSets = { FRAGMENT, QUERY, PATH, USERINFO, C0 };

  function pct(s, set) {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 128) { out += set[c] ? '%' + (c < 16 ? '0' : '') + c.toString(16).toUpperCase() : s[i]; continue; }
      let j = i + 1;
      while (j < s.length && s.charCodeAt(j) >= 128) j++;
      for (const b of enc.encode(s.slice(i, j))) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
      i = j - 1;
    }
    return out;
  }
  internal.percentEncode = pct;

  function pctDecodeBytes(s) {
    const bytes = [];
    const raw = enc.encode(s);
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === 0x25 && i + 2 < raw.length && /^[0-9a-fA-F]{2}$/.test(String.fromCharCode(raw[i + 1], raw[i + 2]))) {
        bytes.push(parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16));
        i += 2;
      } else bytes.push(raw[i]);
    }
    return new Uint8Array(bytes);
  }
  internal.percentDecodeBytes = pctDecodeBytes;

  function invalid(input) { return new TypeError('Invalid URL string.' + (input === undefined ? '' : '')); }

  function parseIPv4Number(p) {
    if (p === '') return NaN;
    let radix = 10;
    if (/^0[xX]/.test(p)) { p = p.slice(2); radix = 16; } else if (p.length > 1 && p[0] === '0') { p = p.slice(1); radix = 8; }
    if (p === '') return 0;
    const re = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
    return re.test(p) ? parseInt(p, radix) : NaN;
  }
  function endsInNumber(h) {
    const parts = h.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    const last = parts[parts.length - 1];
    return /^[0-9]+$/.test(last) || !Number.isNaN(parseIPv4Number(last)) && /^0[xX]/.test(last);
  }
  function parseIPv4(h) {
    const parts = h.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) throw invalid();
    const nums = parts.map(parseIPv4Number);
    if (nums.some(Number.isNaN)) throw invalid();
    for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) throw invalid();
    if (nums[nums.length - 1] >= 256 ** (5 - nums.length)) throw invalid();
    let v = nums[nums.length - 1];
    for (let i = 0; i < nums.length - 1; i++) v += nums[i] * 256 ** (3 - i);
    return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
  }
  function parseIPv6(s) {
    const pieces = [0, 0, 0, 0, 0, 0, 0, 0];
    let idx = 0, compress = null, i = 0;
    if (s[0] === ':') {
      if (s[1] !== ':') throw invalid();
      i = 2;
      compress = idx = 1;
    }
    while (i < s.length) {
      if (idx === 8) throw invalid();
      if (s[i] === ':') {
        if (compress !== null) throw invalid();
        i++;
        compress = ++idx;
        continue;
      }
      let value = 0, len = 0;
      while (len < 4 && i < s.length && /[0-9a-fA-F]/.test(s[i])) { value = value * 16 + parseInt(s[i], 16); i++; len++; }
      if (s[i] === '.') {
        if (len === 0 || idx > 6) throw invalid();
        i -= len;
        const v4 = s.slice(i).split('.');
        if (v4.length !== 4 || v4.some((p) => !/^(0|[1-9][0-9]{0,2})$/.test(p) || +p > 255)) throw invalid();
        pieces[idx++] = (+v4[0] << 8) | +v4[1];
        pieces[idx++] = (+v4[2] << 8) | +v4[3];
        i = s.length;
        break;
      }
      if (s[i] === ':') { i++; if (i >= s.length) throw invalid(); } else if (i < s.length) throw invalid();
      pieces[idx++] = value;
    }
    if (compress !== null) {
      let swaps = idx - compress;
      idx = 7;
      while (idx !== 0 && swaps > 0) { const t = pieces[compress + swaps - 1]; pieces[compress + swaps - 1] = pieces[idx]; pieces[idx] = t; idx--; swaps--; }
    } else if (idx !== 8) throw invalid();
    let best = -1, bestLen = 1;
    for (let a = 0; a < 8;) {
      if (pieces[a] !== 0) { a++; continue; }
      let b = a;
      while (b < 8 && pieces[b] === 0) b++;
      if (b - a > bestLen) { best = a; bestLen = b - a; }
      a = b;
    }
    let out = '';
    for (let a = 0; a < 8; a++) {
      if (a === best) { out += a === 0 ? '::' : ':'; a += bestLen - 1; continue; }
      out += pieces[a].toString(16) + (a < 7 ? ':' : '');
    }
    return '[' + out + ']';
  }
  function parseHost(input, special) {
    if (input[0] === '[') {
      if (input[input.length - 1] !== ']') throw invalid();
      return parseIPv6(input.slice(1, -1));
    }
    if (!special) {
      if (/[\0\t\n\r #/:<>?@[\\\]^|]/.test(input)) throw invalid();
      return pct(input, C0);
    }
    const decoded = new TextDecoder().decode(pctDecodeBytes(input));
    if (/[^\x00-\x7f]/.test(decoded)) {
      throw new TypeError('Invalid URL string: internationalized host names (IDNA) are not supported by cellgate: ' + decoded);
    }
    const ascii = decoded.toLowerCase();
    if (ascii === '' || /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/.test(ascii)) throw invalid();
    return endsInNumber(ascii) ? parseIPv4(ascii) : ascii;
  }

  function shortenPath(rec) {
    const p = rec.path;
    if (rec.scheme === 'file:' && p.length === 1 && /^[a-zA-Z]:$/.test(p[0])) return;
    p.pop();
  }
  const isSingleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
  const isDoubleDot = (s) => /^(\.|%2e)(\.|%2e)$/i.test(s);

  function parsePath(rec, input, special) {
    const segs = special ? input.split(/[/\\]/) : input.split('/');
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i];
      const last = i === segs.length - 1;
      if (isDoubleDot(seg)) { shortenPath(rec); if (last) rec.path.push(''); }
      else if (isSingleDot(seg)) { if (last) rec.path.push(''); }
      else rec.path.push(pct(seg, PATH));
    }
  }

  function parseAuthorityAndRest(rec, rest, special) {
    let end = rest.search(special ? /[/\\?#]/ : /[/?#]/);
    if (end < 0) end = rest.length;
    let auth = rest.slice(0, end);
    const at = auth.lastIndexOf('@');
    if (at >= 0) {
      const info = auth.slice(0, at);
      const colon = info.indexOf(':');
      rec.username = pct(colon < 0 ? info : info.slice(0, colon), USERINFO);
      rec.password = colon < 0 ? '' : pct(info.slice(colon + 1), USERINFO);
      auth = auth.slice(at + 1);
    }
    const m = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(auth);
    if (!m) throw invalid();
    const hostPart = m[1];
    if (special && hostPart === '' && rec.scheme !== 'file:') throw invalid();
    if (m[2] !== undefined && hostPart === '') throw invalid();
    rec.host = rec.scheme === 'file:' && hostPart.toLowerCase() === 'localhost' ? '' : hostPart === '' ? '' : parseHost(hostPart, special);
    rec.port = null;
    if (m[2] !== undefined && m[2] !== '') {
      if (!/^[0-9]+$/.test(m[2]) || +m[2] > 65535) throw invalid();
      const port = String(+m[2]);
      rec.port = SPECIAL[rec.scheme] === port ? null : port;
    }
    return rest.slice(end);
  }

  function parseTail(rec, rest, special) {
    let hash = rest.indexOf('#');
    if (hash >= 0) { rec.fragment = pct(rest.slice(hash + 1), FRAGMENT); rest = rest.slice(0, hash); } else rec.fragment = null;
    const q = rest.indexOf('?');
    if (q >= 0) { rec.query = pct(rest.slice(q + 1), special ? SPECIAL_QUERY : QUERY); rest = rest.slice(0, q); } else rec.query = null;
    return rest;
  }

  function parse(input, base) {
    let s = String(input).replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\r]/g, '');
    const rec = { scheme: '', username: '', password: '', host: null, port: null, path: [], opaque: false, query: null, fragment: null };
    const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(s);
    if (sm) {
      rec.scheme = sm[1].toLowerCase() + ':';
      let rest = s.slice(sm[0].length);
      const special = rec.scheme in SPECIAL;
      if (special && base && base.scheme === rec.scheme && !/^[/\\]/.test(rest)) {
        return relative(rec, rest, base, special);
      }
      if (special || rest.startsWith('//')) {
        // file: "//" opens a host, which may be empty (file:///tmp/x); without it all is path.
        if (rec.scheme === 'file:') rest = /^[/\\]{2}/.test(rest) ? rest.slice(2) : '/' + rest.replace(/^[/\\]/, '');
        else if (special) rest = rest.replace(/^[/\\]*/, '');
        else rest = rest.slice(2);
        rest = parseAuthorityAndRest(rec, rest, special);
        rest = parseTail(rec, rest, special);
        // What is left is empty or starts with a slash (the authority ends at one).
        if (rest !== '') parsePath(rec, rest.slice(1), special);
        if (special && rec.path.length === 0) rec.path.push('');
        return rec;
      }
      rest = parseTail(rec, rest, false);
      if (rest.startsWith('/')) { parsePath(rec, rest.slice(1), false); return rec; }
      rec.opaque = true;
      rec.path = [pct(rest, C0)];
      return rec;
    }
    if (!base) throw invalid();
    if (base.opaque) {
      if (!s.startsWith('#')) throw invalid();
      return Object.assign({}, base, { path: base.path.slice(), fragment: pct(s.slice(1), FRAGMENT) });
    }
    return relative(Object.assign(rec, { scheme: base.scheme }), s, base, base.scheme in SPECIAL);
  }

  function relative(rec, s, base, special) {
    const slash = special ? /^[/\\]/ : /^\//;
    if (special ? /^[/\\]{2}/.test(s) : s.startsWith('//')) {
      let rest = parseAuthorityAndRest(rec, s.slice(2), special);
      rest = parseTail(rec, rest, special);
      if (rest !== '') parsePath(rec, rest.slice(1), special);
      if (special && rec.path.length === 0) rec.path.push('');
      return rec;
    }
    rec.username = base.username; rec.password = base.password; rec.host = base.host; rec.port = base.port;
    let rest = parseTail(rec, s, special);
    if (rest === '') {
      rec.path = base.path.slice();
      if (!s.split('#')[0].includes('?')) rec.query = base.query;
      return rec;
    }
    if (slash.test(rest)) { rec.path = []; parsePath(rec, rest.slice(1), special); return rec; }
    rec.path = base.path.slice(0, -1);
    parsePath(rec, rest, special);
    return rec;
  }

  function serializePath(rec) {
    if (rec.opaque) return rec.path[0];
    if (rec.host === null && rec.path.length > 1 && rec.path[0] === '') return '/.' + '/' + rec.path.join('/').slice(0);
    return rec.path.length ? '/' + rec.path.join('/') : '';
  }
  function serialize(rec, noFragment) {
    let out = rec.scheme;
    if (rec.host !== null) {
      out += '//';
      if (rec.username || rec.password) out += rec.username + (rec.password ? ':' + rec.password : '') + '@';
      out += rec.host + (rec.port !== null ? ':' + rec.port : '');
    }
    out += serializePath(rec);
    if (rec.query !== null) out += '?' + rec.query;
    if (!noFragment && rec.fragment !== null) out += '#' + rec.fragment;
    return out;
  }

  class URL {
    [kRec];
    [kParams] = null;
    constructor(url, base) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': 1 argument required, but only 0 present.");
      const b = base === undefined ? null : parse(String(base), null);
      this[kRec] = parse(String(url), b);
    }
    static canParse(url, base) { try { new URL(url, base); return true; } catch { return false; } }
    static parse(url, base) { try { return new URL(url, base); } catch { return null; } }
    get href() { return serialize(this[kRec]); }
    set href(v) { this[kRec] = parse(String(v), null); if (this[kParams]) internal.paramsReset(this[kParams], this[kRec].query || ''); }
    get origin() {
      const r = this[kRec];
      if (r.scheme === 'blob:') { try { return new URL(r.path[0]).origin; } catch { return 'null'; } }
      if (r.scheme in SPECIAL && r.scheme !== 'file:') return r.scheme + '//' + r.host + (r.port !== null ? ':' + r.port : '');
      return 'null';
    }
    get protocol() { return this[kRec].scheme; }
    set protocol(v) {
      const m = /^([a-zA-Z][a-zA-Z0-9+.-]*)/.exec(String(v));
      if (!m) return;
      const scheme = m[1].toLowerCase() + ':';
      if ((scheme in SPECIAL) !== (this[kRec].scheme in SPECIAL)) return;
      if (scheme === 'file:' && (this[kRec].username || this[kRec].password || this[kRec].port !== null)) return;
      this[kRec].scheme = scheme;
      if (SPECIAL[scheme] === this[kRec].port) this[kRec].port = null;
    }
    get username() { return this[kRec].username; }
    set username(v) { if (this[kRec].host && this[kRec].scheme !== 'file:') this[kRec].username = pct(String(v), USERINFO); }
    get password() { return this[kRec].password; }
    set password(v) { if (this[kRec].host && this[kRec].scheme !== 'file:') this[kRec].password = pct(String(v), USERINFO); }
    get host() { const r = this[kRec]; return r.host === null ? '' : r.host + (r.port !== null ? ':' + r.port : ''); }
    set host(v) {
      if (this[kRec].opaque) return;
      try {
        const t = parse(this[kRec].scheme + '//' + String(v).split(/[/?#\\]/)[0] + '/', null);
        this[kRec].host = t.host;
        if (String(v).includes(':')) this[kRec].port = t.port;
      } catch { /* an invalid host leaves the URL unchanged, as the standard says */ }
    }
    get hostname() { return this[kRec].host === null ? '' : this[kRec].host; }
    set hostname(v) {
      if (this[kRec].opaque) return;
      try { this[kRec].host = parse(this[kRec].scheme + '//' + String(v).split(/[:/?#\\]/)[0] + '/', null).host; } catch { /* unchanged */ }
    }
    get port() { return this[kRec].port === null ? '' : this[kRec].port; }
    set port(v) {
      const r = this[kRec];
      if (r.host === null || r.host === '' || r.scheme === 'file:') return;
      const s = String(v);
      if (s === '') { r.port = null; return; }
      const m = /^[0-9]+/.exec(s);
      if (!m || +m[0] > 65535) return;
      r.port = SPECIAL[r.scheme] === String(+m[0]) ? null : String(+m[0]);
    }
    get pathname() { return serializePath(this[kRec]); }
    set pathname(v) {
      const r = this[kRec];
      if (r.opaque) return;
      r.path = [];
      const special = r.scheme in SPECIAL;
      const s = String(v);
      parsePath(r, special ? s.replace(/^[/\\]/, '') : s.replace(/^\//, ''), special);
    }
    get search() { const q = this[kRec].query; return q === null || q === '' ? '' : '?' + q; }
    set search(v) {
      let s = String(v);
      if (s === '') { this[kRec].query = null; } else {
        if (s[0] === '?') s = s.slice(1);
        this[kRec].query = pct(s, this[kRec].scheme in SPECIAL ? SPECIAL_QUERY : QUERY);
      }
      if (this[kParams]) internal.paramsReset(this[kParams], this[kRec].query || '');
    }
    get searchParams() {
      if (!this[kParams]) {
        this[kParams] = new URLSearchParams(this[kRec].query || '');
        internal.paramsBind(this[kParams], (q) => { this[kRec].query = q === '' && this[kRec].query === null ? null : q; });
      }
      return this[kParams];
    }
    get hash() { const f = this[kRec].fragment; return f === null || f === '' ? '' : '#' + f; }
    set hash(v) {
      let s = String(v);
      if (s === '') { this[kRec].fragment = null; return; }
      if (s[0] === '#') s = s.slice(1);
      this[kRec].fragment = pct(s, FRAGMENT);
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    static createObjectURL() { throw internal.unsupported('URL.createObjectURL'); }
    static revokeObjectURL() { throw internal.unsupported('URL.revokeObjectURL'); }
  }
  internal.defineGlobal('URL', URL);
});
