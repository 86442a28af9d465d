// Blob and File: immutable bytes with a type (and a name and time for a File), as workerd has them.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kBytes = Symbol('Blob.bytes');
  const kType = Symbol('Blob.type');
  const kName = Symbol('File.name');
  const kLastModified = Symbol('File.lastModified');
  const PRINTABLE = /^[\x20-\x7e]*$/;

  function toBytes(part) {
    if (part instanceof Blob) return part[kBytes];
    if (part instanceof ArrayBuffer) return new Uint8Array(part);
    if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    return internal.encoder.encode(String(part));
  }
  function concat(parts, what) {
    if (parts === undefined) return new Uint8Array(0);
    if (parts === null || typeof parts !== 'object' || typeof parts[Symbol.iterator] !== 'function') {
      throw new TypeError("Failed to construct '" + what + "': constructor parameter 1 is not of type 'Array'.");
    }
    const chunks = [];
    let total = 0;
    for (const p of parts) { const b = toBytes(p); chunks.push(b); total += b.byteLength; }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) { out.set(c, at); at += c.byteLength; }
    return out;
  }
  function typeOf(options) {
    if (options === undefined || options === null) return '';
    if (options.endings !== undefined) throw new Error("The 'endings' field on 'Options' is not implemented.");
    if (options.type === undefined) return '';
    const t = String(options.type);
    return PRINTABLE.test(t) ? t.toLowerCase() : '';
  }
  // Blob.slice's index rule: negative counts from the end; clamped to [0, size].
  function clampIndex(x, size) {
    let n = Math.trunc(Number(x));
    if (Number.isNaN(n)) n = 0;
    return n < 0 ? Math.max(size + n, 0) : Math.min(n, size);
  }

  class Blob {
    constructor(parts = undefined, options = undefined) {
      this[kBytes] = concat(parts, 'Blob');
      this[kType] = typeOf(options);
    }
    get size() { return this[kBytes].byteLength; }
    get type() { return this[kType]; }
    slice(start = undefined, end = undefined, type = undefined) {
      const size = this[kBytes].byteLength;
      const from = start === undefined ? 0 : clampIndex(start, size);
      const to = end === undefined ? size : clampIndex(end, size);
      const b = new Blob();
      b[kBytes] = this[kBytes].subarray(from, Math.max(from, to));
      b[kType] = type === undefined ? '' : typeOf({ type });
      return b;
    }
    arrayBuffer() { return Promise.resolve(this[kBytes].slice().buffer); }
    bytes() { return Promise.resolve(this[kBytes].slice()); }
    text() { return Promise.resolve(internal.decoder.decode(this[kBytes])); }
    stream() {
      const bytes = this[kBytes];
      return new (internal.builtin('ReadableStream'))({
        type: 'bytes',
        start(c) { if (bytes.byteLength) c.enqueue(bytes.slice()); c.close(); },
      });
    }
    get [Symbol.toStringTag]() { return 'Blob'; }
    static {
      internal.blobBytes = (b) => b[kBytes];
      // A Blob over bytes the caller hands over (no copy).
      internal.newBlob = (bytes, type) => { const b = new Blob(); b[kBytes] = bytes; b[kType] = type; return b; };
      internal.newFile = (bytes, name, type, lastModified) => {
        const f = new File([], name, { lastModified });
        f[kBytes] = bytes;
        f[kType] = type;
        return f;
      };
    }
  }

  class File extends Blob {
    constructor(bits, name, options = undefined) {
      if (arguments.length < 2) throw new TypeError("Failed to construct 'File': constructor parameter 2 is not of type 'string'.");
      super();
      this[kBytes] = concat(bits, 'File');
      this[kType] = typeOf(options);
      this[kName] = String(name);
      this[kLastModified] = options !== undefined && options !== null && options.lastModified !== undefined
        ? Number(options.lastModified) : Date.now();
    }
    get name() { return this[kName]; }
    get lastModified() { return this[kLastModified]; }
    get [Symbol.toStringTag]() { return 'File'; }
  }

  internal.defineGlobal('Blob', Blob);
  internal.defineGlobal('File', File);
});
