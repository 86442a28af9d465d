// URLPattern as the WHATWG URL Pattern standard defines it (workerd's urlpattern_standard, the
// default from compatibility date 2025-05-01): the tokenizer, the pattern parser, the constructor
// string parser, the per-component regular expressions (`v` flag) and the canonicalization of each
// component through this runtime's URL class. workerd reports every failure as "Failed to
// construct URLPattern" (or "Failed to exec/test URLPattern"), and lists a match's groups last name
// first; both are kept.
(function (host, internal) {
  'use strict';
  const kComponents = Symbol('URLPattern.components');
  const kRegExpGroups = Symbol('URLPattern.hasRegExpGroups');
  const URL = internal.builtin('URL');
  const COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];
  const SPECIAL = ['ftp', 'file', 'http', 'https', 'ws', 'wss'];
  const DEFAULT_PORTS = { ftp: '21', http: '80', https: '443', ws: '80', wss: '443' };
  const FULL_WILDCARD = '.*';

  class PatternError extends TypeError { }
  const fail = () => { throw new PatternError('invalid pattern'); };

  // ---------------------------------------------------------------- tokenizer

  const isNameStart = (c) => /[$_\p{ID_Start}]/u.test(c);
  const isNamePart = (c) => /[$\u200c\u200d\p{ID_Continue}]/u.test(c);
  const isAscii = (c) => c.codePointAt(0) < 0x80;

  function tokenize(input, lenient) {
    const tokens = [];
    const chars = Array.from(input);
    const starts = [];
    for (let i = 0, at = 0; i < chars.length; i++) { starts.push(at); at += chars[i].length; }
    starts.push(input.length);
    let i = 0;
    const add = (type, from, to, value) => tokens.push({ type, index: starts[from], value });
    const invalid = (from, to) => {
      if (!lenient) fail();
      add('invalid-char', from, to, chars.slice(from, to).join(''));
    };
    while (i < chars.length) {
      const c = chars[i];
      if (c === '*') { add('asterisk', i, i + 1, c); i++; continue; }
      if (c === '+' || c === '?') { add('other-modifier', i, i + 1, c); i++; continue; }
      if (c === '\\') {
        if (i === chars.length - 1) { invalid(i, i + 1); i++; continue; }
        add('escaped-char', i, i + 2, chars[i + 1]); i += 2; continue;
      }
      if (c === '{') { add('open', i, i + 1, c); i++; continue; }
      if (c === '}') { add('close', i, i + 1, c); i++; continue; }
      if (c === ':') {
        let j = i + 1;
        while (j < chars.length && (j === i + 1 ? isNameStart(chars[j]) : isNamePart(chars[j]))) j++;
        if (j === i + 1) { invalid(i, i + 1); i++; continue; }
        add('name', i, j, chars.slice(i + 1, j).join(''));
        i = j;
        continue;
      }
      if (c === '(') {
        let depth = 1, j = i + 1, bad = false;
        const start = j;
        if (chars[j] === '?') bad = true;
        while (!bad && j < chars.length) {
          const d = chars[j];
          if (!isAscii(d)) { bad = true; break; }
          if (d === '\\') {
            if (j === chars.length - 1 || !isAscii(chars[j + 1])) { bad = true; break; }
            j += 2;
            continue;
          }
          if (d === ')') { depth--; if (depth === 0) { j++; break; } } else if (d === '(') {
            depth++;
            if (j === chars.length - 1 || chars[j + 1] !== '?') { bad = true; break; }
          }
          j++;
        }
        if (bad || depth !== 0 || j - 1 === start) { invalid(i, i + 1); i++; continue; }
        add('regexp', i, j, chars.slice(start, j - 1).join(''));
        i = j;
        continue;
      }
      add('char', i, i + 1, c);
      i++;
    }
    tokens.push({ type: 'end', index: input.length, value: '' });
    return tokens;
  }

  // ---------------------------------------------------------------- pattern parser

  const escapeRegexp = (s) => s.replace(/[.+*?^${}()[\]|/\\]/g, '\\$&');
  const escapePattern = (s) => s.replace(/[+*?:{}()\\]/g, '\\$&');
  const modifierText = (m) => (m === 'optional' ? '?' : m === 'zero-or-more' ? '*' : m === 'one-or-more' ? '+' : '');
  const segmentWildcard = (options) => '[^' + escapeRegexp(options.delimiter) + ']+?';

  function parsePattern(input, options, encode) {
    const tokens = tokenize(input, false);
    const parts = [];
    const wildcard = segmentWildcard(options);
    let pending = '';
    let index = 0;
    let nextNumericName = 0;
    const tryConsume = (type) => { const t = tokens[index]; if (t.type !== type) return null; index++; return t; };
    const tryRegexpOrWildcard = (name) => { const t = tryConsume('regexp'); return name === null && t === null ? tryConsume('asterisk') : t; };
    const tryModifier = () => tryConsume('other-modifier') || tryConsume('asterisk');
    const consumeText = () => { let r = ''; for (;;) { const t = tryConsume('char') || tryConsume('escaped-char'); if (t === null) return r; r += t.value; } };
    const required = (type) => { const t = tryConsume(type); if (t === null) fail(); return t; };
    const flushPending = () => {
      if (pending === '') return;
      parts.push({ type: 'fixed-text', value: encode(pending), modifier: 'none', name: '', prefix: '', suffix: '' });
      pending = '';
    };
    const addPart = (prefix, nameToken, regexpToken, suffix, modifierToken) => {
      const modifier = modifierToken === null ? 'none'
        : modifierToken.value === '?' ? 'optional' : modifierToken.value === '*' ? 'zero-or-more' : 'one-or-more';
      if (nameToken === null && regexpToken === null && modifier === 'none') { pending += prefix; return; }
      flushPending();
      if (nameToken === null && regexpToken === null) {
        if (prefix === '') return;
        parts.push({ type: 'fixed-text', value: encode(prefix), modifier, name: '', prefix: '', suffix: '' });
        return;
      }
      let value = regexpToken === null ? wildcard : regexpToken.type === 'asterisk' ? FULL_WILDCARD : regexpToken.value;
      let type = 'regexp';
      if (value === wildcard) { type = 'segment-wildcard'; value = ''; } else if (value === FULL_WILDCARD) { type = 'full-wildcard'; value = ''; }
      let name = '';
      if (nameToken !== null) name = nameToken.value;
      else name = String(nextNumericName++);
      if (parts.some((p) => p.type !== 'fixed-text' && p.name === name)) fail();
      parts.push({ type, value, modifier, name, prefix: encode(prefix), suffix: encode(suffix) });
    };
    while (index < tokens.length) {
      const charToken = tryConsume('char');
      const nameToken = tryConsume('name');
      const regexpToken = tryRegexpOrWildcard(nameToken);
      if (nameToken !== null || regexpToken !== null) {
        let prefix = charToken === null ? '' : charToken.value;
        if (prefix !== '' && prefix !== options.prefix) { pending += prefix; prefix = ''; }
        flushPending();
        addPart(prefix, nameToken, regexpToken, '', tryModifier());
        continue;
      }
      const fixed = charToken || tryConsume('escaped-char');
      if (fixed !== null) { pending += fixed.value; continue; }
      if (tryConsume('open') !== null) {
        const prefix = consumeText();
        const name = tryConsume('name');
        const regexp = tryRegexpOrWildcard(name);
        const suffix = consumeText();
        required('close');
        addPart(prefix, name, regexp, suffix, tryModifier());
        continue;
      }
      flushPending();
      required('end');
    }
    return parts;
  }

  function regexpOf(parts, options) {
    let r = '^';
    const names = [];
    for (const p of parts) {
      if (p.type === 'fixed-text') {
        r += p.modifier === 'none' ? escapeRegexp(p.value) : '(?:' + escapeRegexp(p.value) + ')' + modifierText(p.modifier);
        continue;
      }
      names.push(p.name);
      const value = p.type === 'segment-wildcard' ? segmentWildcard(options) : p.type === 'full-wildcard' ? FULL_WILDCARD : p.value;
      const m = modifierText(p.modifier);
      if (p.prefix === '' && p.suffix === '') {
        r += p.modifier === 'none' || p.modifier === 'optional' ? '(' + value + ')' + m : '((?:' + value + ')' + m + ')';
        continue;
      }
      const pre = escapeRegexp(p.prefix), suf = escapeRegexp(p.suffix);
      if (p.modifier === 'none' || p.modifier === 'optional') { r += '(?:' + pre + '(' + value + ')' + suf + ')' + m; continue; }
      r += '(?:' + pre + '((?:' + value + ')(?:' + suf + pre + '(?:' + value + '))*)' + suf + ')';
      if (p.modifier === 'zero-or-more') r += '?';
    }
    return [r + '$', names];
  }

  function patternStringOf(parts, options) {
    let r = '';
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      const prev = i > 0 ? parts[i - 1] : null;
      const next = i + 1 < parts.length ? parts[i + 1] : null;
      if (p.type === 'fixed-text') {
        r += p.modifier === 'none' ? escapePattern(p.value) : '{' + escapePattern(p.value) + '}' + modifierText(p.modifier);
        continue;
      }
      const custom = !/^[0-9]/.test(p.name);
      let group = p.suffix !== '' || (p.prefix !== '' && p.prefix !== options.prefix);
      if (!group && custom && p.type === 'segment-wildcard' && p.modifier === 'none' && next !== null && next.prefix === '' && next.suffix === '') {
        if (next.type === 'fixed-text') group = next.value !== '' && isNamePart(Array.from(next.value)[0]);
        else group = /^[0-9]/.test(next.name);
      }
      if (!group && p.prefix === '' && prev !== null && prev.type === 'fixed-text' && prev.value !== '' && prev.value[prev.value.length - 1] === options.prefix) group = true;
      if (group) r += '{';
      r += escapePattern(p.prefix);
      if (custom) r += ':' + p.name;
      if (p.type === 'regexp') r += '(' + p.value + ')';
      else if (p.type === 'segment-wildcard' && !custom) r += '(' + segmentWildcard(options) + ')';
      else if (p.type === 'full-wildcard') {
        if (!custom && (prev === null || prev.type === 'fixed-text' || prev.modifier !== 'none' || group || p.prefix !== '')) r += '*';
        else r += '(' + FULL_WILDCARD + ')';
      }
      if (p.type === 'segment-wildcard' && custom && p.suffix !== '' && isNamePart(Array.from(p.suffix)[0])) r += '\\';
      r += escapePattern(p.suffix);
      if (group) r += '}';
      r += modifierText(p.modifier);
    }
    return r;
  }

  function compile(input, encode, options) {
    const parts = parsePattern(input, options, encode);
    const [source, names] = regexpOf(parts, options);
    let regexp;
    try { regexp = new RegExp(source, options.ignoreCase ? 'vi' : 'v'); } catch { fail(); }
    return { pattern: patternStringOf(parts, options), regexp, names, hasRegExpGroups: parts.some((p) => p.type === 'regexp') };
  }

  // ---------------------------------------------------------------- canonicalization (through URL)

  const dummy = () => new URL('https://dummy.invalid/');
  function canonicalProtocol(v) {
    if (v === '') return '';
    let u;
    try { u = new URL(v + '://dummy.test'); } catch { fail(); }
    return u.protocol.slice(0, -1);
  }
  function canonicalUsername(v) { if (v === '') return ''; const u = dummy(); u.username = v; return u.username; }
  function canonicalPassword(v) { if (v === '') return ''; const u = dummy(); u.password = v; return u.password; }
  const FORBIDDEN_HOST = /[\u0000\t\n\r #/:<>?@[\\\]^|%]/;
  function canonicalHostname(v) {
    if (v === '') return '';
    if (FORBIDDEN_HOST.test(v)) fail();
    let u;
    try { u = new URL('https://' + v + '/'); } catch { fail(); }
    return u.hostname;
  }
  function canonicalIPv6Hostname(v) {
    let r = '';
    for (const c of v) {
      if (!/[0-9a-fA-F[\]:]/.test(c)) fail();
      r += c.toLowerCase();
    }
    return r;
  }
  function canonicalPort(v, protocol) {
    if (v === '') return '';
    if (!/^[0-9]+$/.test(v)) fail();
    const n = Number(v);
    if (n > 65535) fail();
    if (protocol !== undefined && DEFAULT_PORTS[protocol] === String(n)) return '';
    return String(n);
  }
  function canonicalPathname(v) {
    if (v === '') return '';
    const leadingSlash = v[0] === '/';
    const u = dummy();
    u.pathname = leadingSlash ? v : '/-' + v;
    return leadingSlash ? u.pathname : u.pathname.slice(2);
  }
  function canonicalOpaquePathname(v) {
    if (v === '') return '';
    let u;
    try { u = new URL('fake:' + v); } catch { fail(); }
    return u.pathname;
  }
  function canonicalSearch(v) { if (v === '') return ''; const u = dummy(); u.search = v; return u.search.slice(1); }
  function canonicalHash(v) { if (v === '') return ''; const u = dummy(); u.hash = v; return u.hash.slice(1); }

  // ---------------------------------------------------------------- URLPatternInit processing

  const isAbsolutePathname = (v, type) => {
    if (v === '') return false;
    if (v[0] === '/') return true;
    if (type === 'url') return false;
    return v.startsWith('\\/') || v.startsWith('{/');
  };
  const baseString = (v, type) => (type === 'pattern' ? escapePattern(v) : v);
  const has = (o, k) => o[k] !== undefined;

  function processInit(init, type, defaults) {
    const r = Object.assign({}, defaults);
    let base = null;
    if (has(init, 'baseURL')) {
      try { base = new URL(String(init.baseURL)); } catch { fail(); }
      const any = (...ks) => ks.some((k) => has(init, k));
      if (!has(init, 'protocol')) r.protocol = baseString(base.protocol.slice(0, -1), type);
      if (type !== 'pattern' && !any('protocol', 'hostname', 'port', 'username')) r.username = baseString(base.username, type);
      if (type !== 'pattern' && !any('protocol', 'hostname', 'port', 'username', 'password')) r.password = baseString(base.password, type);
      if (!any('protocol', 'hostname')) r.hostname = baseString(base.hostname, type);
      if (!any('protocol', 'hostname', 'port')) r.port = baseString(base.port, type);
      if (!any('protocol', 'hostname', 'port', 'pathname')) r.pathname = baseString(base.pathname, type);
      if (!any('protocol', 'hostname', 'port', 'pathname', 'search')) r.search = baseString(base.search.slice(1), type);
      if (!any('protocol', 'hostname', 'port', 'pathname', 'search', 'hash')) r.hash = baseString(base.hash.slice(1), type);
    }
    const pattern = type === 'pattern';
    if (has(init, 'protocol')) {
      const v = String(init.protocol);
      const stripped = v.endsWith(':') ? v.slice(0, -1) : v;
      r.protocol = pattern ? stripped : canonicalProtocol(stripped);
    }
    if (has(init, 'username')) r.username = pattern ? String(init.username) : canonicalUsername(String(init.username));
    if (has(init, 'password')) r.password = pattern ? String(init.password) : canonicalPassword(String(init.password));
    if (has(init, 'hostname')) r.hostname = pattern ? String(init.hostname) : canonicalHostname(String(init.hostname));
    if (has(init, 'port')) r.port = pattern ? String(init.port) : canonicalPort(String(init.port), r.protocol);
    if (has(init, 'pathname')) {
      let p = String(init.pathname);
      if (base !== null && base.pathname.startsWith('/') && !isAbsolutePathname(p, type)) {
        const basePath = baseString(base.pathname, type);
        const slash = basePath.lastIndexOf('/');
        if (slash >= 0) p = basePath.slice(0, slash + 1) + p;
      }
      if (!pattern) p = r.protocol === undefined || r.protocol === '' || SPECIAL.includes(r.protocol) ? canonicalPathname(p) : canonicalOpaquePathname(p);
      r.pathname = p;
    }
    if (has(init, 'search')) {
      let v = String(init.search);
      if (v.startsWith('?')) v = v.slice(1);
      r.search = pattern ? v : canonicalSearch(v);
    }
    if (has(init, 'hash')) {
      let v = String(init.hash);
      if (v.startsWith('#')) v = v.slice(1);
      r.hash = pattern ? v : canonicalHash(v);
    }
    return r;
  }

  // ---------------------------------------------------------------- constructor string parser

  function parseConstructorString(input) {
    const tokens = tokenize(input, true);
    const result = {};
    let state = 'init';
    let componentStart = 0, tokenIndex = 0, tokenIncrement = 1, groupDepth = 0, ipv6Depth = 0;
    let protocolIsSpecial = false;
    const safe = (i) => (i < tokens.length ? tokens[i] : tokens[tokens.length - 1]);
    const plain = (i, value) => {
      const t = safe(i);
      return t.value === value && (t.type === 'char' || t.type === 'escaped-char' || t.type === 'invalid-char');
    };
    const isSearchPrefix = () => {
      if (plain(tokenIndex, '?')) return true;
      if (tokens[tokenIndex].value !== '?') return false;
      if (tokenIndex - 1 < 0) return true;
      const prev = safe(tokenIndex - 1).type;
      return !(prev === 'name' || prev === 'regexp' || prev === 'close' || prev === 'asterisk');
    };
    const componentString = () => input.slice(safe(componentStart).index, tokens[tokenIndex].index);
    const rewind = () => { tokenIndex = componentStart; tokenIncrement = 0; };
    const rewindTo = (s) => { rewind(); state = s; };
    const change = (next, skip) => {
      if (state !== 'init' && state !== 'authority' && state !== 'done') result[state] = componentString();
      if (state !== 'init' && next !== 'done') {
        const early = ['protocol', 'authority', 'username', 'password'];
        if (early.includes(state) && ['port', 'pathname', 'search', 'hash'].includes(next) && result.hostname === undefined) result.hostname = '';
        if ([...early, 'hostname', 'port'].includes(state) && (next === 'search' || next === 'hash') && result.pathname === undefined) {
          result.pathname = protocolIsSpecial ? '/' : '';
        }
        if ([...early, 'hostname', 'port', 'pathname'].includes(state) && next === 'hash' && result.search === undefined) result.search = '';
      }
      state = next;
      tokenIndex += skip;
      componentStart = tokenIndex;
      tokenIncrement = 0;
    };
    while (tokenIndex < tokens.length) {
      tokenIncrement = 1;
      const t = tokens[tokenIndex];
      if (t.type === 'end') {
        if (state === 'init') {
          rewind();
          if (plain(tokenIndex, '#')) change('hash', 1);
          else if (isSearchPrefix()) change('search', 1);
          else change('pathname', 0);
          tokenIndex += tokenIncrement;
          continue;
        }
        if (state === 'authority') { rewindTo('hostname'); tokenIndex += tokenIncrement; continue; }
        change('done', 0);
        break;
      }
      if (t.type === 'open') { groupDepth++; tokenIndex += tokenIncrement; continue; }
      if (groupDepth > 0) {
        if (t.type === 'close') groupDepth--;
        else { tokenIndex += tokenIncrement; continue; }
      }
      switch (state) {
        case 'init':
          if (plain(tokenIndex, ':')) rewindTo('protocol');
          break;
        case 'protocol':
          if (plain(tokenIndex, ':')) {
            const protocol = compile(componentString(), canonicalProtocol, { delimiter: '', prefix: '', ignoreCase: false });
            protocolIsSpecial = SPECIAL.some((s) => protocol.regexp.test(s));
            if (plain(tokenIndex + 1, '/') && plain(tokenIndex + 2, '/')) change('authority', 3);
            else if (protocolIsSpecial) change('authority', 1);
            else change('pathname', 1);
          }
          break;
        case 'authority':
          if (plain(tokenIndex, '@')) rewindTo('username');
          else if (plain(tokenIndex, '/') || isSearchPrefix() || plain(tokenIndex, '#')) rewindTo('hostname');
          break;
        case 'username':
          if (plain(tokenIndex, ':')) change('password', 1);
          else if (plain(tokenIndex, '@')) change('hostname', 1);
          break;
        case 'password':
          if (plain(tokenIndex, '@')) change('hostname', 1);
          break;
        case 'hostname':
          if (plain(tokenIndex, '[')) ipv6Depth++;
          else if (plain(tokenIndex, ']')) ipv6Depth--;
          else if (plain(tokenIndex, ':') && ipv6Depth === 0) change('port', 1);
          else if (plain(tokenIndex, '/')) change('pathname', 0);
          else if (isSearchPrefix()) change('search', 1);
          else if (plain(tokenIndex, '#')) change('hash', 1);
          break;
        case 'port':
          if (plain(tokenIndex, '/')) change('pathname', 0);
          else if (isSearchPrefix()) change('search', 1);
          else if (plain(tokenIndex, '#')) change('hash', 1);
          break;
        case 'pathname':
          if (isSearchPrefix()) change('search', 1);
          else if (plain(tokenIndex, '#')) change('hash', 1);
          break;
        case 'search':
          if (plain(tokenIndex, '#')) change('hash', 1);
          break;
        default:
          break;
      }
      tokenIndex += tokenIncrement;
    }
    if (result.hostname !== undefined && result.port === undefined) result.port = '';
    return result;
  }

  // ---------------------------------------------------------------- URLPattern

  const isIPv6Pattern = (v) => v.length >= 2 && (v[0] === '[' || (v[0] === '{' && v[1] === '[') || (v[0] === '\\' && v[1] === '['));

  function construct(self, input, baseURL, options) {
    let init;
    if (typeof input === 'string') {
      init = parseConstructorString(input);
      if (baseURL === undefined && init.protocol === undefined) fail();
      if (baseURL !== undefined) init.baseURL = baseURL;
    } else if (input !== null && typeof input === 'object') {
      if (baseURL !== undefined) fail();
      init = input;
    } else {
      fail();
    }
    const p = processInit(init, 'pattern', {});
    for (const c of COMPONENTS) if (p[c] === undefined) p[c] = '*';
    if (SPECIAL.includes(p.protocol) && p.port === DEFAULT_PORTS[p.protocol]) p.port = '';
    const plainOptions = { delimiter: '', prefix: '', ignoreCase: false };
    const caseOptions = { delimiter: '', prefix: '', ignoreCase: !!options.ignoreCase };
    const c = {};
    c.protocol = compile(p.protocol, canonicalProtocol, plainOptions);
    c.username = compile(p.username, canonicalUsername, plainOptions);
    c.password = compile(p.password, canonicalPassword, plainOptions);
    c.hostname = compile(p.hostname, isIPv6Pattern(p.hostname) ? canonicalIPv6Hostname : canonicalHostname,
      { delimiter: '.', prefix: '', ignoreCase: false });
    c.port = compile(p.port, (v) => canonicalPort(v, undefined), plainOptions);
    c.pathname = SPECIAL.some((s) => c.protocol.regexp.test(s))
      ? compile(p.pathname, canonicalPathname, { delimiter: '/', prefix: '/', ignoreCase: !!options.ignoreCase })
      : compile(p.pathname, canonicalOpaquePathname, caseOptions);
    c.search = compile(p.search, canonicalSearch, caseOptions);
    c.hash = compile(p.hash, canonicalHash, caseOptions);
    self[kComponents] = c;
    self[kRegExpGroups] = COMPONENTS.some((k) => c[k].hasRegExpGroups);
  }

  // The init as a match reports it: its members in component order (as workerd copies it).
  function initCopy(init) {
    const r = {};
    for (const k of [...COMPONENTS, 'baseURL']) if (init[k] !== undefined) r[k] = String(init[k]);
    return r;
  }

  function match(self, input, baseURL, what) {
    const inputs = [input !== null && typeof input === 'object' ? initCopy(input) : input];
    let values;
    if (input !== null && typeof input === 'object') {
      if (baseURL !== undefined) throw new TypeError('Failed to ' + what + ' URLPattern');
      try { values = processInit(input, 'url', { protocol: '', username: '', password: '', hostname: '', port: '', pathname: '', search: '', hash: '' }); } catch (e) {
        if (e instanceof PatternError) return null;
        throw e;
      }
    } else {
      let url;
      try {
        if (baseURL !== undefined) { inputs.push(String(baseURL)); url = new URL(String(input), String(baseURL)); } else url = new URL(String(input));
      } catch { return null; }
      values = {
        protocol: url.protocol.slice(0, -1), username: url.username, password: url.password, hostname: url.hostname, port: url.port,
        pathname: url.pathname, search: url.search.slice(1), hash: url.hash.slice(1),
      };
    }
    const c = self[kComponents];
    const result = { inputs };
    for (const k of COMPONENTS) {
      const m = c[k].regexp.exec(values[k]);
      if (m === null) return null;
      const groups = {};
      // (workerd lists the groups last name first)
      for (let i = c[k].names.length - 1; i >= 0; i--) groups[c[k].names[i]] = m[i + 1];
      result[k] = { input: values[k], groups };
    }
    return result;
  }

  class URLPattern {
    constructor(input = undefined, baseURL = undefined, options = undefined) {
      if (baseURL !== null && typeof baseURL === 'object' && options === undefined) { options = baseURL; baseURL = undefined; }
      if (input === undefined) input = {};
      const opts = options === undefined || options === null ? {} : options;
      try {
        construct(this, input, baseURL === undefined ? undefined : String(baseURL), opts);
      } catch (e) {
        if (e instanceof TypeError) throw new TypeError('Failed to construct URLPattern');
        throw e;
      }
    }
    get protocol() { return this[kComponents].protocol.pattern; }
    get username() { return this[kComponents].username.pattern; }
    get password() { return this[kComponents].password.pattern; }
    get hostname() { return this[kComponents].hostname.pattern; }
    get port() { return this[kComponents].port.pattern; }
    get pathname() { return this[kComponents].pathname.pattern; }
    get search() { return this[kComponents].search.pattern; }
    get hash() { return this[kComponents].hash.pattern; }
    get hasRegExpGroups() { return this[kRegExpGroups]; }
    test(input = undefined, baseURL = undefined) {
      if (input === undefined) return false;
      return match(this, input, baseURL, 'test') !== null;
    }
    exec(input = undefined, baseURL = undefined) {
      if (input === undefined) return null;
      return match(this, input, baseURL, 'exec');
    }
    get [Symbol.toStringTag]() { return 'URLPattern'; }
  }

  internal.defineGlobal('URLPattern', URLPattern);
});
