// The structured-clone serialization: structuredClone(), RPC arguments and results, and Durable
// Object KV values all use this ONE byte format (the format is documented in README.md of the
// js-graal plugin, "Structured-clone format"). Little-endian; a version byte (1) then one value:
//
//   0x00 undefined   0x01 null   0x02 false   0x03 true
//   0x04 number      float64
//   0x05 bigint      u8 sign (0 = +, 1 = -), string of the magnitude in hex
//   0x06 string      u32 byte length, UTF-8 bytes (lone surrogates become U+FFFD)
//   0x07 Date        float64 time value
//   0x08 RegExp      string source, string flags
//   0x09 ArrayBuffer u32 byte length, bytes
//   0x0A view        u8 kind (index in VIEWS), u32 byteOffset, u32 length (elements; bytes for DataView), value buffer
//   0x0B Array       u32 length, length values (holes come back as undefined)
//   0x0C Object      u32 count, count × (string key, value)  — own enumerable string keys
//   0x0D Map         u32 count, count × (key value, value)
//   0x0E Set         u32 count, count values
//   0x0F Error       string name, string message, u8 has stack [string stack], u8 has cause [value cause]
//   0x10 reference   u32 index: an object already written (shared references and cycles)
//   0x11 boxed       value: a Boolean, Number, String or BigInt wrapper object
//   0x12 stub        string key: an object passed by reference (RpcTarget, function, or a stub
//                    passed on); RPC messages only (RpcExports.java names the keys)
//   0x13 DO stub     string className, string hex, u8 has name [string name]: a Durable Object stub
//                    (RPC messages only)
//   0x14 Headers     u32 count, count × (string name, string value): the pairs its iterator yields
//                    (RPC messages only, as workerd passes Headers)
//   0x15 service     u8 has entrypoint [string entrypoint], u8 has props [string props as JSON],
//                    u8 loopback: a service binding to this Worker (RPC messages only; every node
//                    runs the same Worker, so the receiver serves it in process as the sender would)
//
// A "string" inside a tag is u32 byte length + UTF-8, without a tag byte. Every object (all tags
// from 0x07 up, except 0x10) takes the next index, in the order it is first written. Errors come
// back as the standard class named by `name` (Error, EvalError, RangeError, ReferenceError,
// SyntaxError, TypeError, URIError, or DOMException with that name), otherwise as Error.
// Functions, symbols, promises, WeakMaps and other host objects throw a DataCloneError.
//
// Modes: internal.serialize(v) is storage (KV values, WebSocket attachments); 'clone' is
// structuredClone(); 'rpc' is an RPC message, where RpcTargets and functions are exported
// (rpc-server.js), stubs are moved to the receiver (rpc-client.js), Durable Object stubs travel by
// id, and instances of other classes are refused, as workerd does. The bytes of an RPC message carry
// the keys it minted (`rpcKeys`), so a message that is never sent can release them.
// internal.deserialize(bytes, 'argument' | 'result') turns stub tags into stubs held by the running
// call or by the request / object (RpcBridge.java).
(function (host, internal) {
  'use strict';
  const VERSION = 1;
  const VIEWS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView];
  const ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  const DOM_NAMES = new Set(['AbortError', 'TimeoutError', 'DataCloneError', 'NotSupportedError', 'InvalidStateError',
    'InvalidCharacterError', 'InvalidAccessError', 'NetworkError', 'QuotaExceededError', 'NotFoundError', 'TypeMismatchError']);

  // What rpc-client.js's and durable-object-stubs.js's proxies answer for this key: 'stub' |
  // 'promise' | 'property' | 'dostub' (a symbol read, no table: they are made on every call).
  const kMark = internal.rpcMark = Symbol('rpc.mark');
  const MARKS = new Set(['stub', 'promise', 'property', 'dostub', 'service']);
  const markOf = (v) => { const m = v[kMark]; return MARKS.has(m) ? m : undefined; };
  const STUB_IN_STORAGE = ' cannot be serialized in this context.';
  const TARGET_OUTSIDE_RPC = 'Remote RPC references can only be serialized for RPC.';

  class Writer {
    constructor(mode) {
      this.buf = new Uint8Array(256); this.view = new DataView(this.buf.buffer); this.len = 0; this.seen = new Map();
      this.mode = mode; this.keys = undefined;
    }
    key(k) { (this.keys || (this.keys = [])).push(k); this.u8(0x12); this.str(k); }
    ensure(n) {
      if (this.len + n <= this.buf.length) return;
      let size = this.buf.length * 2;
      while (size < this.len + n) size *= 2;
      const b = new Uint8Array(size);
      b.set(this.buf.subarray(0, this.len));
      this.buf = b; this.view = new DataView(b.buffer);
    }
    u8(v) { this.ensure(1); this.buf[this.len++] = v; }
    u32(v) { this.ensure(4); this.view.setUint32(this.len, v, true); this.len += 4; }
    f64(v) { this.ensure(8); this.view.setFloat64(this.len, v, true); this.len += 8; }
    bytes(b) { this.u32(b.byteLength); this.ensure(b.byteLength); this.buf.set(b, this.len); this.len += b.byteLength; }
    str(s) { this.bytes(internal.encoder.encode(s)); }
  }

  function fail(what) { return new DOMException(what + ' could not be cloned.', 'DataCloneError'); }
  const cloneError = (message) => new DOMException(message, 'DataCloneError');

  // A stub, RpcPromise, RpcProperty or Durable Object stub (`mark`) or an exportable value.
  function writeRpcObject(w, v, mark) {
    if (mark === 'service') {
      if (w.mode !== 'rpc') throw fail('#<Fetcher>');
      const [entrypoint, propsJson, loopback] = v[internal.serviceParts];
      w.u8(0x15);
      w.u8(entrypoint === null ? 0 : 1); if (entrypoint !== null) w.str(entrypoint);
      w.u8(propsJson === null ? 0 : 1); if (propsJson !== null) w.str(propsJson);
      w.u8(loopback ? 1 : 0);
      return;
    }
    const type = mark === 'promise' ? 'RpcPromise' : mark === 'property' ? 'RpcProperty' : mark === 'dostub' ? 'ServiceStub' : 'RpcStub';
    if (w.mode !== 'rpc') {
      if (w.mode !== 'clone' && (mark === 'stub' || mark === 'dostub')) throw cloneError(type + STUB_IN_STORAGE);
      throw fail('#<' + (mark === 'dostub' ? 'DurableObject' : type) + '>');
    }
    if (mark === 'stub') { w.key(internal.rpcTransfer(v)); return; }
    if (mark === 'dostub') {
      const [className, hex, name] = internal.idParts(internal.doStubId(v));
      w.u8(0x13); w.str(className); w.str(hex); w.u8(name === undefined ? 0 : 1); if (name !== undefined) w.str(name);
      return;
    }
    throw cloneError('Could not serialize object of type "' + type + '". This type does not support serialization.');
  }

  function write(w, v) {
    switch (typeof v) {
      case 'undefined': w.u8(0x00); return;
      case 'boolean': w.u8(v ? 0x03 : 0x02); return;
      case 'number': w.u8(0x04); w.f64(v); return;
      case 'string': w.u8(0x06); w.str(v); return;
      case 'bigint': w.u8(0x05); w.u8(v < 0n ? 1 : 0); w.str((v < 0n ? -v : v).toString(16)); return;
      case 'symbol': throw fail(String(v));
    }
    if (v === null) { w.u8(0x01); return; }
    const ref = w.seen.get(v);
    if (ref !== undefined) { w.u8(0x10); w.u32(ref); return; }
    const mark = markOf(v);
    if (mark !== undefined) { w.seen.set(v, w.seen.size); writeRpcObject(w, v, mark); return; }
    if (typeof v === 'function') {
      if (w.mode !== 'rpc') throw fail(v.toString().slice(0, 80));
      w.seen.set(v, w.seen.size);
      w.key(internal.rpcExport(v));
      return;
    }
    w.seen.set(v, w.seen.size);
    if (v instanceof Date) { w.u8(0x07); w.f64(v.getTime()); return; }
    if (v instanceof RegExp) { w.u8(0x08); w.str(v.source); w.str(v.flags); return; }
    if (v instanceof ArrayBuffer) { w.u8(0x09); w.bytes(new Uint8Array(v)); return; }
    if (ArrayBuffer.isView(v)) {
      const kind = VIEWS.findIndex((C) => v instanceof C);
      if (kind < 0) throw fail('This view');
      w.u8(0x0A); w.u8(kind); w.u32(v.byteOffset); w.u32(v instanceof DataView ? v.byteLength : v.length);
      write(w, v.buffer);
      return;
    }
    if (Array.isArray(v)) { w.u8(0x0B); w.u32(v.length); for (let i = 0; i < v.length; i++) write(w, v[i]); return; }
    if (v instanceof Map) { w.u8(0x0D); w.u32(v.size); for (const [k, x] of v) { write(w, k); write(w, x); } return; }
    if (v instanceof Set) { w.u8(0x0E); w.u32(v.size); for (const x of v) write(w, x); return; }
    if (v instanceof Error || v instanceof DOMException) {
      w.u8(0x0F); w.str(String(v.name)); w.str(String(v.message));
      const stack = typeof v.stack === 'string' ? v.stack : null;
      w.u8(stack === null ? 0 : 1); if (stack !== null) w.str(stack);
      const hasCause = Object.prototype.hasOwnProperty.call(v, 'cause');
      w.u8(hasCause ? 1 : 0); if (hasCause) write(w, v.cause);
      return;
    }
    if (v instanceof Boolean || v instanceof Number || v instanceof String || v instanceof BigInt) {
      w.u8(0x11); write(w, v.valueOf()); return;
    }
    // An RpcTarget is exported in an RPC message and refused anywhere else (workerd).
    if (internal.RpcTarget !== undefined && v instanceof internal.RpcTarget) {
      if (w.mode !== 'rpc') throw cloneError(TARGET_OUTSIDE_RPC);
      w.key(internal.rpcExport(v));
      return;
    }
    if (internal.isInstance('CryptoKey', v)) { // as workerd: keys hold host material and are not serializable
      throw new DOMException('Could not serialize object of type "CryptoKey". This type does not support serialization.', 'DataCloneError');
    }
    if (v instanceof WeakMap || v instanceof WeakSet) throw fail('#<' + (v instanceof WeakMap ? 'WeakMap' : 'WeakSet') + '>');
    if (v instanceof Promise || v instanceof WeakRef) throw fail(Object.prototype.toString.call(v));
    if (w.mode === 'rpc' && v instanceof Headers) {
      const pairs = [...v];
      w.u8(0x14); w.u32(pairs.length);
      for (const [name, value] of pairs) { w.str(name); w.str(value); }
      return;
    }
    // (a Blob, File, FormData or MessagePort is refused rather than copied as an empty plain object; workerd clones a Blob)
    if (internal.isInstance('Blob', v) || internal.isInstance('FormData', v) || internal.isInstance('MessagePort', v)) {
      throw fail(Object.prototype.toString.call(v));
    }
    const platform = v instanceof Request ? 'Request' : v instanceof Response ? 'Response'
      : internal.isInstance('ReadableStream', v) ? 'ReadableStream' : internal.isInstance('WritableStream', v) ? 'WritableStream' : null;
    if (platform !== null) {
      // workerd passes these over RPC (streams by reference); cellgate refuses them by name rather than drop them.
      if (w.mode === 'rpc') throw cloneError('cellgate does not pass a ' + platform + ' over RPC yet (workerd does); send its contents instead.');
      throw fail(Object.prototype.toString.call(v));
    }
    if (w.mode === 'rpc') {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        const C = proto.constructor;
        const name = typeof C === 'function' && C.name ? C.name : 'Object';
        throw cloneError('Could not serialize object of type "' + name + '". This type does not support serialization.');
      }
    }
    const keys = Object.keys(v);
    w.u8(0x0C); w.u32(keys.length);
    for (const k of keys) { w.str(k); write(w, v[k]); }
  }

  class Reader {
    constructor(bytes, mode) {
      this.b = bytes; this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength); this.at = 0; this.refs = [];
      this.mode = mode;
    }
    need(n) { if (this.at + n > this.b.byteLength) throw new DOMException('Truncated structured-clone data.', 'DataCloneError'); }
    u8() { this.need(1); return this.b[this.at++]; }
    u32() { this.need(4); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
    f64() { this.need(8); const v = this.view.getFloat64(this.at, true); this.at += 8; return v; }
    raw() { const n = this.u32(); this.need(n); const out = this.b.slice(this.at, this.at + n); this.at += n; return out; }
    str() { return internal.decoder.decode(this.raw()); }
  }

  function read(r) {
    const tag = r.u8();
    switch (tag) {
      case 0x00: return undefined;
      case 0x01: return null;
      case 0x02: return false;
      case 0x03: return true;
      case 0x04: return r.f64();
      case 0x05: { const neg = r.u8() === 1; const m = BigInt('0x' + r.str()); return neg ? -m : m; }
      case 0x06: return r.str();
      case 0x10: {
        const i = r.u32();
        if (i >= r.refs.length) throw new DOMException('Bad reference in structured-clone data.', 'DataCloneError');
        return r.refs[i];
      }
    }
    const index = r.refs.length;
    r.refs.push(undefined);
    const keep = (v) => { r.refs[index] = v; return v; };
    switch (tag) {
      case 0x07: return keep(new Date(r.f64()));
      case 0x08: { const src = r.str(); return keep(new RegExp(src, r.str())); }
      case 0x09: return keep(r.raw().buffer);
      case 0x0A: {
        const C = VIEWS[r.u8()];
        const offset = r.u32();
        const length = r.u32();
        if (!C) throw new DOMException('Unknown view kind in structured-clone data.', 'DataCloneError');
        return keep(new C(read(r), offset, length));
      }
      case 0x0B: { const n = r.u32(); const a = keep(new Array(n)); for (let i = 0; i < n; i++) a[i] = read(r); return a; }
      case 0x0C: { const n = r.u32(); const o = keep({}); for (let i = 0; i < n; i++) { const k = r.str(); o[k] = read(r); } return o; }
      case 0x0D: { const n = r.u32(); const m = keep(new Map()); for (let i = 0; i < n; i++) { const k = read(r); m.set(k, read(r)); } return m; }
      case 0x0E: { const n = r.u32(); const s = keep(new Set()); for (let i = 0; i < n; i++) s.add(read(r)); return s; }
      case 0x0F: {
        const name = r.str();
        const message = r.str();
        const stack = r.u8() === 1 ? r.str() : undefined;
        const C = ERRORS[name];
        const e = keep(C ? new C(message) : DOM_NAMES.has(name) ? new DOMException(message, name) : new Error(message));
        if (stack !== undefined) Object.defineProperty(e, 'stack', { value: stack, writable: true, configurable: true });
        if (r.u8() === 1) Object.defineProperty(e, 'cause', { value: read(r), writable: true, configurable: true });
        return e;
      }
      case 0x11: return keep(Object(read(r)));
      case 0x12: {
        const key = r.str();
        if (r.mode === undefined) throw new DOMException('A stub in structured-clone data outside an RPC message.', 'DataCloneError');
        return keep(internal.rpcStub(key, r.mode === 'argument'));
      }
      case 0x14: {
        const n = r.u32();
        const h = keep(new Headers());
        for (let i = 0; i < n; i++) { const name = r.str(); h.append(name, r.str()); }
        return h;
      }
      case 0x13: {
        const className = r.str();
        const hex = r.str();
        const name = r.u8() === 1 ? r.str() : undefined;
        if (r.mode === undefined) throw new DOMException('A Durable Object stub in structured-clone data outside an RPC message.', 'DataCloneError');
        return keep(internal.newStub(internal.newId(className, hex, name), 'Fetcher'));
      }
      case 0x15: {
        const entrypoint = r.u8() === 1 ? r.str() : null;
        const props = r.u8() === 1 ? JSON.parse(r.str()) : null;
        const loopback = r.u8() === 1;
        if (r.mode === undefined) throw new DOMException('A service binding in structured-clone data outside an RPC message.', 'DataCloneError');
        return keep(internal.newServiceStub(entrypoint, props, loopback));
      }
    }
    throw new DOMException('Unknown tag ' + tag + ' in structured-clone data.', 'DataCloneError');
  }

  internal.serialize = function (value, mode) {
    const w = new Writer(mode);
    w.u8(VERSION);
    try {
      write(w, value);
    } catch (e) {
      if (w.keys !== undefined) for (const k of w.keys) host.rpc().release(k); // minted for a message that is never sent
      throw e;
    }
    const out = w.buf.subarray(0, w.len);
    if (w.keys !== undefined) out.rpcKeys = w.keys;
    return out;
  };
  internal.deserialize = function (bytes, mode) {
    const r = new Reader(bytes, mode);
    const version = r.u8();
    if (version !== VERSION) throw new DOMException('Unsupported structured-clone version ' + version, 'DataCloneError');
    return read(r);
  };
  internal.defineGlobal('structuredClone', function structuredClone(value, options) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
    if (options && options.transfer && options.transfer.length) throw internal.unsupported('structuredClone transfer lists');
    return internal.deserialize(internal.serialize(value, 'clone'));
  });
});
