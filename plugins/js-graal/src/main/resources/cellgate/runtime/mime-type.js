// MIME types as the WHATWG MIME Sniffing standard parses and serializes them: what
// `body.blob().type` reports for a Content-Type (workerd's blob_standard_mime_type behaviour) and
// how FormData finds its boundary.
(function (host, internal) {
  'use strict';
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const QUOTED_OK = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;
  const isWs = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const trim = (s) => { let a = 0, b = s.length; while (a < b && isWs(s[a])) a++; while (b > a && isWs(s[b - 1])) b--; return s.slice(a, b); };

  // { type, subtype, params: Map(lower-case name -> value) } or null when `input` is not a MIME type.
  internal.parseMimeType = function (input) {
    const s = trim(String(input));
    let i = s.indexOf('/');
    if (i <= 0) return null;
    const type = s.slice(0, i);
    if (!TOKEN.test(type)) return null;
    let j = s.indexOf(';', i + 1);
    if (j < 0) j = s.length;
    const subtype = trim(s.slice(i + 1, j));
    if (!TOKEN.test(subtype)) return null;
    const params = new Map();
    let p = j;
    while (p < s.length) {
      p++; // the ';'
      while (p < s.length && isWs(s[p])) p++;
      let nameEnd = p;
      while (nameEnd < s.length && s[nameEnd] !== ';' && s[nameEnd] !== '=') nameEnd++;
      const name = s.slice(p, nameEnd).toLowerCase();
      p = nameEnd;
      if (p >= s.length) break;
      if (s[p] === ';') continue;
      p++; // the '='
      let value;
      if (s[p] === '"') {
        value = '';
        p++;
        while (p < s.length && s[p] !== '"') {
          if (s[p] === '\\' && p + 1 < s.length) p++;
          value += s[p++];
        }
        while (p < s.length && s[p] !== ';') p++;
      } else {
        let end = s.indexOf(';', p);
        if (end < 0) end = s.length;
        value = trim(s.slice(p, end));
        p = end;
        if (value === '') continue;
      }
      if (name !== '' && TOKEN.test(name) && QUOTED_OK.test(value) && !params.has(name)) params.set(name, value);
    }
    return { type: type.toLowerCase(), subtype: subtype.toLowerCase(), params };
  };

  internal.serializeMimeType = function (m) {
    let out = m.type + '/' + m.subtype;
    for (const [name, value] of m.params) {
      out += ';' + name + '=';
      out += TOKEN.test(value) ? value : '"' + value.replace(/(["\\])/g, '\\$1') + '"';
    }
    return out;
  };
});
