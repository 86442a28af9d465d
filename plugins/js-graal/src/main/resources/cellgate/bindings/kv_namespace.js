// The Workers KV API (env.<KV binding>) over the host's KvNamespaceHost (runtime-core
// core/bindings): argument conversion and the errors workerd raises before a call reaches the
// store are here; Cloudflare's limits and the store are on the host.
(function (host, internal) {
  'use strict';
  const TYPES = ['text', 'arrayBuffer', 'json', 'stream'];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  // workerd's integer conversion of an option: absent stays absent (NaN to the host), a non-number becomes 0
  const num = (v) => (v === undefined || v === null ? NaN : (Number.isFinite(Number(v)) ? Math.trunc(Number(v)) : 0));

  function options(opts) {
    if (opts === undefined || opts === null) return { type: 'text', cacheTtl: NaN };
    if (typeof opts === 'string') return { type: opts, cacheTtl: NaN };
    return { type: opts.type === undefined ? 'text' : String(opts.type), cacheTtl: num(opts.cacheTtl) };
  }

  function checkType(type) {
    if (!TYPES.includes(type)) {
      throw new TypeError('Unknown response type. Possible types are "text", "arrayBuffer", "json", and "stream".');
    }
  }

  function convert(entry, type) {
    if (entry === null) return null;
    const buffer = new ArrayBuffer(entry.value());
    switch (type) {
      case 'arrayBuffer': return buffer;
      case 'stream': return new Response(buffer).body;
      case 'json': return JSON.parse(decoder.decode(buffer));
      default: return decoder.decode(buffer);
    }
  }

  const meta = (entry) => (entry === null || entry.metadata() === null ? null : JSON.parse(entry.metadata()));

  async function bytesOf(value) {
    if (value === undefined) {
      throw new TypeError("Failed to execute 'put' on 'KvNamespace': parameter 2 is not of type 'string or JsObject'.");
    }
    let u8;
    if (typeof value === 'string') u8 = encoder.encode(value);
    else if (value instanceof ArrayBuffer) u8 = new Uint8Array(value);
    else if (ArrayBuffer.isView(value)) u8 = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else if (value instanceof ReadableStream) u8 = new Uint8Array(await new Response(value).arrayBuffer());
    else if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      throw new TypeError('KV put() accepts only strings, ArrayBuffers, ArrayBufferViews, and ReadableStreams as values.');
    } else u8 = encoder.encode(String(value));
    return host.bindings().bytes(u8.buffer, u8.byteOffset, u8.byteLength);
  }

  return function (target, settings, name) {
    async function one(key, opts, withMetadata) {
      const o = options(opts);
      checkType(o.type);
      const entry = await internal.hostPromise(target.get(String(key), o.cacheTtl));
      const value = convert(entry, o.type);
      return withMetadata ? { value, metadata: meta(entry), cacheStatus: null } : value;
    }

    async function bulk(keys, opts, withMetadata) {
      const o = options(opts);
      checkType(o.type);
      const names = keys.map(String);
      await internal.hostPromise(target.bulk(names.length, o.type));
      const entries = await Promise.all(names.map((k) => internal.hostPromise(target.get(k, o.cacheTtl))));
      const out = new Map();
      names.forEach((k, i) => {
        let value = null;
        if (entries[i] !== null) {
          try {
            value = convert(entries[i], o.type);
          } catch (e) {
            throw new Error('KV GET_BULK failed: 400 At least one of the requested keys corresponds to a non-json value');
          }
        }
        out.set(k, withMetadata ? (entries[i] === null ? null : { value, metadata: meta(entries[i]) }) : value);
      });
      return out;
    }

    class KvNamespace {
      get(key, opts) {
        return Array.isArray(key) ? bulk(key, opts, false) : one(key, opts, false);
      }

      getWithMetadata(key, opts) {
        return Array.isArray(key) ? bulk(key, opts, true) : one(key, opts, true);
      }

      async put(key, value, opts) {
        const k = String(key);
        const bytes = await bytesOf(value);
        const o = opts || {};
        const metadata = o.metadata === undefined || o.metadata === null ? null : JSON.stringify(o.metadata);
        await internal.hostPromise(target.put(k, bytes, num(o.expiration), num(o.expirationTtl), metadata));
      }

      async delete(key) {
        await internal.hostPromise(target.delete(String(key)));
      }

      async list(opts) {
        const o = opts || {};
        const page = JSON.parse(await internal.hostPromise(target.list(o.prefix === undefined || o.prefix === null ? null : String(o.prefix),
          num(o.limit), o.cursor === undefined || o.cursor === null ? null : String(o.cursor))));
        const keys = page.keys.map((k) => {
          const key = { name: k.name };
          if (k.expiration !== undefined) key.expiration = k.expiration;
          if (k.metadata !== undefined) key.metadata = JSON.parse(k.metadata);
          return key;
        });
        const out = { keys, list_complete: page.list_complete };
        if (page.cursor !== undefined) out.cursor = page.cursor;
        out.cacheStatus = null;
        return out;
      }
    }
    Object.defineProperty(KvNamespace, 'name', { value: 'KvNamespace' });
    return new KvNamespace();
  };
});
