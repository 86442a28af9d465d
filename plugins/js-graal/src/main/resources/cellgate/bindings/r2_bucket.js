// The Workers R2 API (env.<R2 binding>) over the host's R2BucketHost (runtime-core
// core/bindings): argument conversion (Headers to httpMetadata and onlyIf, checksums, ranges) and
// the object classes are here; the decisions (ranges, preconditions, limits) are on the host.
(function (host, internal) {
  'use strict';
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const NaNum = (v) => (v === undefined || v === null ? NaN : Number(v));
  const HTTP = [['contentType', 'content-type'], ['contentLanguage', 'content-language'], ['contentDisposition', 'content-disposition'],
    ['contentEncoding', 'content-encoding'], ['cacheControl', 'cache-control']];
  const hexOf = (v) => (typeof v === 'string' ? v : Array.from(new Uint8Array(ArrayBuffer.isView(v) ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v))
    .map((b) => b.toString(16).padStart(2, '0')).join(''));
  const HASHES = [['md5', 'MD5', 32], ['sha1', 'SHA-1', 40], ['sha256', 'SHA-256', 64], ['sha384', 'SHA-384', 96], ['sha512', 'SHA-512', 128]];
  const ms = (d) => (d === undefined || d === null ? undefined : new Date(d).getTime());

  class R2Checksums {
    constructor(sums) {
      for (const k of ['md5', 'sha1', 'sha256', 'sha384', 'sha512']) {
        if (sums[k] !== undefined) {
          const hex = sums[k];
          Object.defineProperty(this, k, { enumerable: true, get: () => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16))).buffer });
        }
      }
      Object.defineProperty(this, 'toJSON', { value: () => Object.assign({}, sums) });
    }
  }

  function httpMetadataOut(m) {
    const out = {};
    for (const [k] of HTTP) if (m[k] !== undefined) out[k] = m[k];
    if (m.cacheExpiry !== undefined) out.cacheExpiry = new Date(m.cacheExpiry);
    return out;
  }

  function httpMetadataIn(m) {
    if (m === undefined || m === null) return null;
    const out = {};
    if (m instanceof Headers) {
      for (const [k, h] of HTTP) if (m.has(h)) out[k] = m.get(h);
      if (m.has('expires')) out.cacheExpiry = new Date(m.get('expires')).getTime();
      return JSON.stringify(out);
    }
    for (const [k] of HTTP) if (m[k] !== undefined) out[k] = String(m[k]);
    if (m.cacheExpiry !== undefined) out.cacheExpiry = new Date(m.cacheExpiry).getTime();
    return JSON.stringify(out);
  }

  function onlyIfIn(c) {
    if (c === undefined || c === null) return null;
    const out = {};
    if (c instanceof Headers) {
      if (c.has('if-match')) out.etagMatches = c.get('if-match');
      if (c.has('if-none-match')) out.etagDoesNotMatch = c.get('if-none-match');
      if (c.has('if-unmodified-since')) out.uploadedBefore = new Date(c.get('if-unmodified-since')).getTime();
      if (c.has('if-modified-since')) out.uploadedAfter = new Date(c.get('if-modified-since')).getTime();
      out.secondsGranularity = true;
      return JSON.stringify(out);
    }
    // unlike the headers' form, the object form takes etags as they are, never quoted
    const plain = (e) => {
      const s = String(e);
      if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) throw new TypeError('Conditional ETag should not be wrapped in quotes (' + s + ').');
      return s;
    };
    if (c.etagMatches !== undefined) out.etagMatches = plain(c.etagMatches);
    if (c.etagDoesNotMatch !== undefined) out.etagDoesNotMatch = plain(c.etagDoesNotMatch);
    if (c.uploadedBefore !== undefined) out.uploadedBefore = ms(c.uploadedBefore);
    if (c.uploadedAfter !== undefined) out.uploadedAfter = ms(c.uploadedAfter);
    if (c.secondsGranularity) out.secondsGranularity = true;
    return JSON.stringify(out);
  }

  // The own properties in workerd's order (JSON.stringify of an object shows them so).
  function fill(o, m) {
    o.ssecKeyMd5 = undefined;
    o.storageClass = '';
    o.range = m.range;
    o.customMetadata = m.customMetadata;
    o.httpMetadata = httpMetadataOut(m.httpMetadata);
    o.uploaded = new Date(m.uploaded);
    o.checksums = new R2Checksums(m.checksums);
    o.httpEtag = '"' + m.etag + '"';
    o.etag = m.etag;
    o.size = m.size;
    o.version = m.version;
    o.key = m.key;
  }

  class HeadResult {
    constructor(m) {
      fill(this, m);
    }

    writeHttpMetadata(headers) {
      const m = this.httpMetadata;
      for (const [k, h] of HTTP) if (m[k] !== undefined) headers.set(h, m[k]);
      if (m.cacheExpiry !== undefined) headers.set('expires', m.cacheExpiry.toUTCString());
    }
  }

  class GetResult extends HeadResult {
    #buffer;
    #body;
    #used = false;

    constructor(m, buffer) {
      super(m);
      this.#buffer = buffer;
    }

    get body() {
      if (this.#body === undefined) this.#body = new Response(this.#buffer).body;
      return this.#body;
    }

    get bodyUsed() {
      return this.#used || (this.#body !== undefined && this.#body.locked);
    }

    #take() {
      if (this.bodyUsed) return Promise.reject(new TypeError('Body has already been used.'));
      this.#used = true;
      return Promise.resolve(this.#buffer);
    }

    arrayBuffer() { return this.#take(); }
    async bytes() { return new Uint8Array(await this.#take()); }
    async text() { return decoder.decode(await this.#take()); }
    async json() { return JSON.parse(decoder.decode(await this.#take())); }
    async blob() { return new Blob([await this.#take()], { type: this.httpMetadata.contentType || '' }); }
  }

  async function bytesOf(value) {
    let u8;
    if (value === null) u8 = new Uint8Array(0);
    else if (typeof value === 'string') u8 = encoder.encode(value);
    else if (value instanceof ArrayBuffer) u8 = new Uint8Array(value);
    else if (ArrayBuffer.isView(value)) u8 = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else if (value instanceof ReadableStream) u8 = new Uint8Array(await new Response(value).arrayBuffer());
    else if (typeof Blob !== 'undefined' && value instanceof Blob) u8 = new Uint8Array(await value.arrayBuffer());
    else {
      throw new TypeError("Failed to execute 'put' on 'R2Bucket': parameter 2 is not of type 'ReadableStream or ArrayBuffer or ArrayBufferView or string or Blob'.");
    }
    return host.bindings().bytes(u8.buffer, u8.byteOffset, u8.byteLength);
  }

  function rangeIn(r) {
    if (r === undefined || r === null) return [NaN, NaN, NaN];
    if (r instanceof Headers) {
      const h = r.get('range');
      const m = h === null ? null : /^bytes=(\d*)-(\d*)$/.exec(h.trim());
      if (m === null) return [NaN, NaN, NaN];
      if (m[1] === '') return [NaN, NaN, Number(m[2])];
      return [Number(m[1]), m[2] === '' ? NaN : Number(m[2]) - Number(m[1]) + 1, NaN];
    }
    return [NaNum(r.offset), NaNum(r.length), NaNum(r.suffix)];
  }

  // An upload in progress; its parts live in the fleet bucket, so any node can continue it.
  function multipart(target, key, uploadId) {
    class R2MultipartUpload {
      constructor() {
        this.uploadId = uploadId;
        this.key = key;
      }

      async uploadPart(partNumber, value) {
        const bytes = await bytesOf(value);
        const etag = await internal.hostPromise(target.uploadPart(key, uploadId, Number(partNumber), bytes));
        return { partNumber: Number(partNumber), etag };
      }

      async abort() {
        await internal.hostPromise(target.abortUpload(key, uploadId));
      }

      async complete(parts) {
        const list = Array.from(parts, (p) => ({ partNumber: Number(p.partNumber), etag: String(p.etag) }));
        return new HeadResult(JSON.parse(await internal.hostPromise(target.completeUpload(key, uploadId, JSON.stringify(list)))));
      }
    }
    return new R2MultipartUpload();
  }

  return function (target, settings, name) {
    class R2Bucket {
      async head(key) {
        const m = await internal.hostPromise(target.head(String(key)));
        return m === null ? null : new HeadResult(JSON.parse(m));
      }

      async get(key, options) {
        const o = options || {};
        const [offset, length, suffix] = rangeIn(o.range);
        const got = await internal.hostPromise(target.get(String(key), onlyIfIn(o.onlyIf), offset, length, suffix));
        if (got === null) return null;
        const m = JSON.parse(got.meta());
        const body = got.body();
        return body === null ? new HeadResult(m) : new GetResult(m, new ArrayBuffer(body));
      }

      async put(key, value, options) {
        const k = String(key);
        const bytes = await bytesOf(value);
        const o = options || {};
        const sums = {};
        for (const [a, label, hexLength] of HASHES) {
          if (o[a] === undefined) continue;
          sums[a] = hexOf(o[a]);
          if (typeof o[a] === 'string' && o[a].length !== hexLength) {
            throw new TypeError(label + ' is ' + hexLength + ' hex characters, not ' + o[a].length);
          }
        }
        const custom = o.customMetadata === undefined ? null
          : JSON.stringify(Object.fromEntries(Object.entries(o.customMetadata).map(([a, b]) => [a, String(b)])));
        const m = await internal.hostPromise(target.put(k, bytes, httpMetadataIn(o.httpMetadata), custom,
          Object.keys(sums).length === 0 ? null : JSON.stringify(sums), onlyIfIn(o.onlyIf)));
        return m === null ? null : new HeadResult(JSON.parse(m));
      }

      async delete(keys) {
        await internal.hostPromise(target.delete(JSON.stringify(Array.isArray(keys) ? keys.map(String) : [String(keys)])));
      }

      async list(options) {
        const o = options || {};
        const include = o.include === undefined ? [] : Array.from(o.include, String);
        for (const i of include) {
          if (i !== 'httpMetadata' && i !== 'customMetadata') throw new RangeError('Unsupported include value ' + i);
        }
        const str = (v) => (v === undefined || v === null ? null : String(v));
        const page = JSON.parse(await internal.hostPromise(target.list(str(o.prefix), str(o.delimiter), str(o.cursor), str(o.startAfter),
          NaNum(o.limit), include.includes('httpMetadata'), include.includes('customMetadata'))));
        const out = { objects: page.objects.map((m) => new HeadResult(m)), truncated: page.truncated };
        if (page.cursor !== undefined) out.cursor = page.cursor;
        out.delimitedPrefixes = page.delimitedPrefixes;
        return out;
      }

      async createMultipartUpload(key, options) {
        const k = String(key);
        const o = options || {};
        const custom = o.customMetadata === undefined ? null
          : JSON.stringify(Object.fromEntries(Object.entries(o.customMetadata).map(([a, b]) => [a, String(b)])));
        const uploadId = await internal.hostPromise(target.createUpload(k, httpMetadataIn(o.httpMetadata), custom));
        return multipart(target, k, uploadId);
      }

      resumeMultipartUpload(key, uploadId) {
        return multipart(target, String(key), String(uploadId));
      }
    }
    Object.defineProperty(R2Bucket, 'name', { value: 'R2Bucket' });
    return new R2Bucket();
  };
});
