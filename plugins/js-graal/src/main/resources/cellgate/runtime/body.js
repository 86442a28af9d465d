// The body shared by Request and Response: a string, bytes or a ReadableStream, read at most once.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kTake = Symbol('BodyState.take');
  // A stream whose length is known in advance (FixedLengthStream's readable) carries it here.
  const kLength = internal.kStreamLength = Symbol('ReadableStream.knownLength');
  const USED = 'Body has already been used. It can only be used once. Use tee() first if you need to read it twice.';

  class BodyState {
    // source: null | string | Uint8Array | ReadableStream
    constructor(source) { this.source = source; this.used = false; }

    get usedOrLocked() {
      const s = this.source;
      return internal.isInstance('ReadableStream', s) ? internal.rsDisturbed(s) || s.locked : this.used;
    }
    stream() {
      const s = this.source;
      if (s === null || internal.isInstance('ReadableStream', s)) return s;
      // (a copy: the stream takes its buffer, which a clone or a Blob may share)
      const bytes = typeof s === 'string' ? internal.encoder.encode(s) : s.slice();
      const used = this.used;
      this.source = new (internal.builtin('ReadableStream'))({
        type: 'bytes',
        start(c) { if (!used && bytes.byteLength) c.enqueue(bytes); c.close(); },
      });
      if (used) internal.rsRead(this.source);
      return this.source;
    }
    [kTake]() {
      if (this.usedOrLocked) throw new TypeError(USED);
      this.used = true;
      return this.source;
    }
    async bytes() {
      const s = this[kTake]();
      if (s === null) return new Uint8Array(0);
      if (typeof s === 'string') return internal.encoder.encode(s);
      if (s instanceof Uint8Array) return s.slice();
      return internal.readAllBytes(s);
    }
    async text() {
      const s = this[kTake]();
      if (s === null) return '';
      if (typeof s === 'string') return s;
      return internal.decoder.decode(s instanceof Uint8Array ? s : await internal.readAllBytes(s));
    }
    clone() {
      const s = this.source;
      if (this.usedOrLocked) throw new TypeError('Body has already been used. It can only be used once. Use tee() first if you need to read it twice.');
      if (!(internal.isInstance('ReadableStream', s))) return new BodyState(s);
      const [a, b] = s.tee();
      this.source = a;
      return new BodyState(b);
    }
    // [kind, value, offset, length] for the host (see BodyArgs.java).
    toHost() {
      const s = this.source;
      if (s === null) return [0, null, 0, 0];
      if (this.usedOrLocked) throw new TypeError(USED);
      this.used = true;
      if (typeof s === 'string') return [1, s, 0, 0];
      if (s instanceof Uint8Array) return [2, s.buffer, s.byteOffset, s.byteLength];
      return [3, s.getReader(), 0, s[kLength] === undefined ? -1 : s[kLength]];
    }
  }

  // Extracts a BodyInit: [BodyState, default content-type or null].
  internal.extractBody = function (init) {
    if (init === null || init === undefined) return [new BodyState(null), null];
    if (typeof init === 'string') return [new BodyState(init), 'text/plain;charset=UTF-8'];
    if (internal.isInstance('ReadableStream', init)) return [new BodyState(init), null];
    if (init instanceof ArrayBuffer) return [new BodyState(new Uint8Array(init.slice(0))), null];
    if (ArrayBuffer.isView(init)) {
      return [new BodyState(new Uint8Array(init.buffer.slice(init.byteOffset, init.byteOffset + init.byteLength))), null];
    }
    if (internal.isInstance('Blob', init)) return [new BodyState(internal.blobBytes(init)), init.type || null];
    if (internal.isInstance('URLSearchParams', init)) return [new BodyState(init.toString()), 'application/x-www-form-urlencoded;charset=UTF-8'];
    if (internal.isInstance('FormData', init)) {
      const [bytes, type] = internal.serializeFormData(init);
      return [new BodyState(bytes), type];
    }
    return [new BodyState(String(init)), 'text/plain;charset=UTF-8'];
  };
  internal.hostBody = function (kind, value) {
    if (kind === 2) return new BodyState(new Uint8Array(new ArrayBuffer(value)));
    if (kind === 3) return new BodyState(internal.streamFromHost(value));
    return new BodyState(null);
  };
  internal.BodyState = BodyState;

  // The Body mixin; `state(obj)` gives the object's BodyState, `headers(obj)` its Headers.
  internal.mixinBody = function (cls, state) {
    const methods = {
      get body() { return state(this).stream(); },
      get bodyUsed() { return state(this).usedOrLocked; },
      arrayBuffer() { try { return state(this).bytes().then((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b.buffer : b.slice().buffer)); } catch (e) { return Promise.reject(e); } },
      bytes() { try { return state(this).bytes(); } catch (e) { return Promise.reject(e); } },
      text() { try { return state(this).text(); } catch (e) { return Promise.reject(e); } },
      json() { try { return state(this).text().then(JSON.parse); } catch (e) { return Promise.reject(e); } },
      blob() {
        try {
          const header = this.headers.get('content-type');
          return state(this).bytes().then((b) => {
            // the type is the Content-Type as a MIME type serializes (workerd's blob_standard_mime_type)
            const mime = header === null ? null : internal.parseMimeType(header);
            return internal.newBlob(b, mime === null ? '' : internal.serializeMimeType(mime));
          });
        } catch (e) { return Promise.reject(e); }
      },
      formData() {
        try {
          const header = this.headers.get('content-type');
          return state(this).bytes().then((b) => internal.parseFormData(b, header));
        } catch (e) { return Promise.reject(e); }
      },
    };
    Object.defineProperties(cls.prototype, Object.getOwnPropertyDescriptors(methods));
  };
});
