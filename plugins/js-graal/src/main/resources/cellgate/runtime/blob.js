// Blob: immutable bytes with a type (File and FormData are not supported).
(function (host, internal) {
  'use strict';
  function toBytes(part) {
    if (part instanceof Blob) return internal.blobBytes(part);
    if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
    if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
    return internal.encoder.encode(String(part));
  }

  class Blob {
    #bytes;
    #type;
    constructor(parts = [], options = {}) {
      if (parts === null || typeof parts !== 'object' || typeof parts[Symbol.iterator] !== 'function') {
        throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.");
      }
      const chunks = [...parts].map(toBytes);
      const total = chunks.reduce((n, c) => n + c.byteLength, 0);
      this.#bytes = new Uint8Array(total);
      let at = 0;
      for (const c of chunks) { this.#bytes.set(c, at); at += c.byteLength; }
      const t = options && options.type !== undefined ? String(options.type) : '';
      this.#type = /[^\x20-\x7e]/.test(t) ? '' : t.toLowerCase();
    }
    get size() { return this.#bytes.byteLength; }
    get type() { return this.#type; }
    slice(start = 0, end = this.size, type = '') {
      const n = this.size;
      const rel = (x) => (x < 0 ? Math.max(n + x, 0) : Math.min(x, n));
      const b = new Blob([], { type });
      b.#bytes = this.#bytes.slice(rel(start), Math.max(rel(end), rel(start)));
      return b;
    }
    async arrayBuffer() { return this.#bytes.slice().buffer; }
    async bytes() { return this.#bytes.slice(); }
    async text() { return internal.decoder.decode(this.#bytes); }
    stream() {
      const bytes = this.#bytes;
      return new (internal.builtin('ReadableStream'))({ type: 'bytes', start(c) { if (bytes.byteLength) c.enqueue(bytes.slice()); c.close(); } });
    }
    static {
      internal.blobBytes = (b) => b.#bytes;
    }
  }
  internal.defineGlobal('Blob', Blob);
});
