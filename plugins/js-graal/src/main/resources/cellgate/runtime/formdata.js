// FormData, and the two body formats it reads and writes: multipart/form-data (RFC 7578) and
// application/x-www-form-urlencoded. Parsing and serialization follow what workerd does, quirks
// included: a Blob appended without a file name is named after its field, a serialized name
// escapes only '"' and LF, the multipart parser accepts LF as well as CRLF line ends and reports
// workerd's messages, and a part with an empty filename is a string entry.
(function (host, internal) {
  'use strict';
  const kEntries = Symbol('FormData.entries');
  const File = internal.builtin('File');
  const Blob = internal.builtin('Blob');

  function need(args, n, method, what) {
    if (args.length < n) throw new TypeError("Failed to execute '" + method + "' on 'FormData': parameter " + n + " is not of type '" + what + "'.");
  }
  // The entry value for (name, value[, filename]), as workerd makes it.
  function entryValue(name, value, args, method) {
    if (args.length < 2) {
      throw new TypeError("Failed to execute '" + method + "' on 'FormData': parameter 2 is not of type 'File or Blob or string'.");
    }
    if (!(value instanceof Blob)) return String(value);
    if (args.length > 2) return internal.newFile(internal.blobBytes(value), String(args[2]), value.type, Date.now());
    if (value instanceof File) return value;
    return internal.newFile(internal.blobBytes(value), name, value.type, Date.now());
  }

  class FormData {
    constructor() { this[kEntries] = []; }
    append(name, value, filename) {
      need(arguments, 1, 'append', 'string');
      name = String(name);
      this[kEntries].push([name, entryValue(name, value, arguments, 'append')]);
    }
    set(name, value, filename) {
      need(arguments, 1, 'set', 'string');
      name = String(name);
      const v = entryValue(name, value, arguments, 'set');
      const list = this[kEntries];
      const i = list.findIndex((e) => e[0] === name);
      if (i < 0) { list.push([name, v]); return; }
      list[i] = [name, v];
      for (let j = list.length - 1; j > i; j--) if (list[j][0] === name) list.splice(j, 1);
    }
    delete(name) {
      need(arguments, 1, 'delete', 'string');
      name = String(name);
      this[kEntries] = this[kEntries].filter((e) => e[0] !== name);
    }
    get(name) {
      need(arguments, 1, 'get', 'string');
      name = String(name);
      const e = this[kEntries].find((x) => x[0] === name);
      return e === undefined ? null : e[1];
    }
    getAll(name) {
      need(arguments, 1, 'getAll', 'string');
      name = String(name);
      return this[kEntries].filter((e) => e[0] === name).map((e) => e[1]);
    }
    has(name) {
      need(arguments, 1, 'has', 'string');
      name = String(name);
      return this[kEntries].some((e) => e[0] === name);
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') {
        throw new TypeError("Failed to execute 'forEach' on 'FormData': parameter 1 is not of type 'function'.");
      }
      for (let i = 0; i < this[kEntries].length; i++) { const [k, v] = this[kEntries][i]; callback.call(thisArg, v, k, this); }
    }
    entries() { return iterate(this, (e) => [e[0], e[1]]); }
    keys() { return iterate(this, (e) => e[0]); }
    values() { return iterate(this, (e) => e[1]); }
    [Symbol.iterator]() { return iterate(this, (e) => [e[0], e[1]]); }
    get [Symbol.toStringTag]() { return 'FormData'; }
  }
  // A live iterator, as the standard's (entries appended while iterating are seen).
  function iterate(fd, pick) {
    let i = 0;
    return {
      next() {
        const list = fd[kEntries];
        if (i >= list.length) return { value: undefined, done: true };
        return { value: pick(list[i++]), done: false };
      },
      [Symbol.iterator]() { return this; },
      get [Symbol.toStringTag]() { return 'EntryIterator'; },
    };
  }

  // ---------------------------------------------------------------- serialization

  // workerd escapes only '"' and LF in names (a CR stays as it is).
  const escapeName = (s) => s.replace(/"/g, '%22').replace(/\n/g, '%0A');

  // [bytes, content-type] of a FormData body.
  internal.serializeFormData = function (fd) {
    const boundary = host.randomHex32().slice(0, 32);
    const enc = internal.encoder;
    const parts = [];
    let total = 0;
    const push = (b) => { parts.push(b); total += b.byteLength; };
    for (const [name, value] of fd[kEntries]) {
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + escapeName(name) + '"';
      if (typeof value === 'string') {
        push(enc.encode(head + '\r\n\r\n' + value + '\r\n'));
        continue;
      }
      head += '; filename="' + escapeName(value.name) + '"\r\nContent-Type: ' + (value.type || 'application/octet-stream') + '\r\n\r\n';
      push(enc.encode(head));
      push(internal.blobBytes(value));
      push(enc.encode('\r\n'));
    }
    push(enc.encode('--' + boundary + '--'));
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.byteLength; }
    return [out, 'multipart/form-data; boundary=' + boundary];
  };

  // ---------------------------------------------------------------- parsing

  const UNRECOGNIZED = 'Unrecognized Content-Type header value. FormData can only parse the following MIME types: '
    + 'multipart/form-data, application/x-www-form-urlencoded';
  const NO_BOUNDARY = "No boundary string in Content-Type header. The multipart/form-data MIME type requires a boundary parameter, "
    + "e.g. 'Content-Type: multipart/form-data; boundary=\"abcd\"'. See RFC 7578, section 4.";

  // A FormData from a body's bytes and its Content-Type header value (null when absent).
  internal.parseFormData = function (bytes, contentType) {
    const mime = contentType === null ? null : internal.parseMimeType(contentType);
    const essence = mime === null ? '' : mime.type + '/' + mime.subtype;
    const fd = new FormData();
    if (essence === 'application/x-www-form-urlencoded') {
      for (const [k, v] of parseUrlEncoded(bytes)) fd[kEntries].push([k, v]);
      return fd;
    }
    if (essence !== 'multipart/form-data') throw new TypeError(UNRECOGNIZED);
    const boundary = mime.params.get('boundary');
    if (boundary === undefined || boundary === '') throw new TypeError(NO_BOUNDARY);
    parseMultipart(bytes, boundary, fd[kEntries]);
    return fd;
  };

  // workerd's form decoding: '+' is a space, '%' takes up to two hex digits (as many as there are).
  function hexValue(c) {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 65 && c <= 70) return c - 55;
    if (c >= 97 && c <= 102) return c - 87;
    return -1;
  }
  function decodeFormComponent(bytes, from, to) {
    const out = new Uint8Array(to - from);
    let n = 0;
    for (let i = from; i < to; i++) {
      const c = bytes[i];
      if (c === 43) { out[n++] = 32; continue; }
      if (c !== 37) { out[n++] = c; continue; }
      let v = 0, digits = 0;
      while (digits < 2 && i + 1 < to && hexValue(bytes[i + 1]) >= 0) { v = v * 16 + hexValue(bytes[i + 1]); i++; digits++; }
      if (digits > 0) out[n++] = v;
    }
    return internal.decoder.decode(out.subarray(0, n));
  }
  function parseUrlEncoded(bytes) {
    const pairs = [];
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 38) continue;
      if (i > start) {
        let eq = start;
        while (eq < i && bytes[eq] !== 61) eq++;
        pairs.push([decodeFormComponent(bytes, start, eq), eq < i ? decodeFormComponent(bytes, eq + 1, i) : '']);
      }
      start = i + 1;
    }
    return pairs;
  }

  function indexOf(bytes, pattern, from) {
    const first = pattern[0];
    const last = bytes.length - pattern.length;
    outer: for (let i = from; i <= last; i++) {
      if (bytes[i] !== first) continue;
      for (let j = 1; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
      return i;
    }
    return -1;
  }
  const CR = 13, LF = 10, DASH = 45;

  function parseMultipart(bytes, boundary, entries) {
    const dashBoundary = internal.encoder.encode('--' + boundary);
    const delimiter = internal.encoder.encode('\n--' + boundary);
    // the first boundary: at the very start, or after a line end
    let at = -1;
    if (indexOf(bytes.subarray(0, dashBoundary.length), dashBoundary, 0) === 0) at = 0;
    else {
      const d = indexOf(bytes, delimiter, 0);
      if (d >= 0) at = d + 1;
    }
    if (at < 0) throw new TypeError('No initial boundary string (or you have a truncated message).');
    let p = at + dashBoundary.length;
    for (;;) {
      // after a boundary: '--' ends the message, a line end starts a part
      if (bytes[p] === DASH && bytes[p + 1] === DASH) return;
      if (bytes[p] === CR && bytes[p + 1] === LF) p += 2;
      else if (bytes[p] === LF) p += 1;
      else if (p >= bytes.length) throw new TypeError('No subsequent boundary string after multipart message.');
      else throw new TypeError("Boundary string was not succeeded by CRLF, LF, or '--'.");
      // headers, up to an empty line
      const crlf = indexOf(bytes, [CR, LF, CR, LF], p);
      const lflf = indexOf(bytes, [LF, LF], p);
      let headEnd, bodyStart;
      if (crlf >= 0 && (lflf < 0 || crlf + 1 <= lflf)) { headEnd = crlf; bodyStart = crlf + 4; } else if (lflf >= 0) { headEnd = lflf; bodyStart = lflf + 2; } else {
        throw new TypeError('No multipart message header termination found.');
      }
      const headers = parseHeaders(internal.decoder.decode(bytes.subarray(p, headEnd)));
      const next = indexOf(bytes, delimiter, bodyStart - 1 < 0 ? 0 : bodyStart - 1);
      if (next < 0) throw new TypeError('No subsequent boundary string after multipart message.');
      let bodyEnd = next;
      if (bodyEnd > bodyStart - 1 && bytes[bodyEnd - 1] === CR) bodyEnd--;
      const body = bytes.subarray(bodyStart, Math.max(bodyStart, bodyEnd));
      entries.push(partEntry(headers, body));
      p = next + delimiter.length;
    }
  }

  // Header lines of one part: a Map of lower-case name -> value; a continuation line or a line
  // without a colon is invalid, as in workerd's HTTP header parser.
  function parseHeaders(text) {
    const map = new Map();
    for (const raw of text.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const colon = line.indexOf(':');
      if (colon <= 0 || line.includes('\r') || line[0] === ' ' || line[0] === '\t') throw new TypeError('FormData part had invalid headers.');
      const name = line.slice(0, colon).toLowerCase();
      if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name)) throw new TypeError('FormData part had invalid headers.');
      map.set(name, line.slice(colon + 1).trim());
    }
    return map;
  }

  function partEntry(headers, body) {
    const disposition = headers.get('content-disposition');
    if (disposition === undefined) throw new TypeError('No valid Content-Disposition header found in FormData part.');
    const semi = disposition.indexOf(';');
    const kind = (semi < 0 ? disposition : disposition.slice(0, semi)).trim();
    if (kind !== 'form-data') {
      throw new TypeError('Content-Disposition header for FormData part must have the value "form-data", possibly followed by parameters. Got: "'
        + kind + '"');
    }
    const params = semi < 0 ? new Map() : dispositionParams(disposition.slice(semi + 1));
    const name = params.get('name');
    if (name === undefined || name === '') throw new TypeError('Content-Disposition header in FormData part is missing a name.');
    const filename = params.get('filename');
    if (filename === undefined || filename === '') return [name, internal.decoder.decode(body)];
    const type = headers.get('content-type');
    return [name, internal.newFile(body.slice(), filename, type === undefined ? '' : type, Date.now())];
  }

  // `; name="value"` pairs; only quoted values count (an unquoted name is missing, as in workerd).
  function dispositionParams(s) {
    const params = new Map();
    let i = 0;
    while (i < s.length) {
      while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === ';')) i++;
      let eq = i;
      while (eq < s.length && s[eq] !== '=' && s[eq] !== ';') eq++;
      const key = s.slice(i, eq).trim().toLowerCase();
      i = eq;
      if (s[i] !== '=') continue;
      i++;
      if (s[i] === '"') {
        let v = '';
        i++;
        while (i < s.length && s[i] !== '"') { if (s[i] === '\\' && i + 1 < s.length) i++; v += s[i++]; }
        i++;
        params.set(key, v);
      } else {
        while (i < s.length && s[i] !== ';') i++;
      }
    }
    return params;
  }

  internal.defineGlobal('FormData', FormData);
});
