// crypto: getRandomValues, randomUUID, and crypto.subtle digest (SHA-1/256/384/512) and HMAC
// importKey/exportKey/sign/verify, computed by the JDK (HostCrypto.java). Other algorithms and
// methods reject with a TypeError naming them.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kKey = Symbol('CryptoKey.key');
  const kAlgorithm = Symbol('CryptoKey.algorithm');
  const kExtractable = Symbol('CryptoKey.extractable');
  const kUsages = Symbol('CryptoKey.usages');
  const HASHES = { 'SHA-1': 'SHA-1', 'SHA-256': 'SHA-256', 'SHA-384': 'SHA-384', 'SHA-512': 'SHA-512' };
  const CREATE = Symbol('create');

  function algName(alg) {
    const name = typeof alg === 'string' ? alg : alg && typeof alg.name === 'string' ? alg.name : null;
    if (name === null) throw new TypeError('Algorithm: Unrecognized name');
    return name;
  }
  function hashName(alg) {
    const upper = algName(alg).toUpperCase();
    if (!HASHES[upper]) throw new DOMException('Unrecognized hash algorithm: ' + algName(alg), 'NotSupportedError');
    return HASHES[upper];
  }
  function bytesOf(data, what) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    throw new TypeError(what + ' must be an ArrayBuffer or ArrayBufferView');
  }
  const fromHost = (bb) => new Uint8Array(new ArrayBuffer(bb)).slice().buffer;
  const async = (fn) => { try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); } };

  class CryptoKey {
    [kKey]; [kAlgorithm]; [kExtractable]; [kUsages];
    constructor(key, raw, algorithm, extractable, usages) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kKey] = raw; this[kAlgorithm] = algorithm; this[kExtractable] = extractable; this[kUsages] = usages;
    }
    get type() { return 'secret'; }
    get extractable() { return this[kExtractable]; }
    get algorithm() { return this[kAlgorithm]; }
    get usages() { return this[kUsages].slice(); }
    static { internal.keyBytes = (k) => k[kKey]; }
  }

  function hmacKey(key, usage) {
    if (!(key instanceof CryptoKey)) throw new TypeError('Failed to execute: parameter 2 is not of type \'CryptoKey\'.');
    if (key.algorithm.name !== 'HMAC') throw new DOMException('The key algorithm does not match the operation.', 'InvalidAccessError');
    if (!key.usages.includes(usage)) throw new DOMException('The key does not permit this operation (' + usage + ').', 'InvalidAccessError');
    return internal.keyBytes(key);
  }
  const unsupportedAlg = (method, alg) => internal.unsupported('crypto.subtle.' + method + ' with algorithm ' + algName(alg));

  const subtle = {
    digest: (alg, data) => async(() => {
      const hash = hashName(alg);
      const b = bytesOf(data, 'data');
      return fromHost(host.digest(hash, b.buffer, b.byteOffset, b.byteLength));
    }),
    importKey: (format, keyData, alg, extractable, usages) => async(() => {
      if (algName(alg).toUpperCase() !== 'HMAC') throw unsupportedAlg('importKey', alg);
      if (format !== 'raw') throw internal.unsupported("crypto.subtle.importKey format '" + format + "' for HMAC (use 'raw')");
      const hash = hashName(alg.hash);
      const raw = bytesOf(keyData, 'keyData').slice();
      for (const u of usages) if (u !== 'sign' && u !== 'verify') throw new SyntaxError('HMAC keys support only sign and verify usages, got ' + u);
      if (usages.length === 0) throw new SyntaxError('Usages cannot be empty when creating a key.');
      const length = alg.length !== undefined ? Number(alg.length) : raw.byteLength * 8;
      return new CryptoKey(CREATE, raw, { name: 'HMAC', hash: { name: hash }, length }, !!extractable, [...usages]);
    }),
    exportKey: (format, key) => async(() => {
      if (!(key instanceof CryptoKey)) throw new TypeError("Failed to execute 'exportKey': parameter 2 is not of type 'CryptoKey'.");
      if (!key.extractable) throw new DOMException('Key is not extractable.', 'InvalidAccessError');
      if (format !== 'raw') throw internal.unsupported("crypto.subtle.exportKey format '" + format + "'");
      return internal.keyBytes(key).slice().buffer;
    }),
    sign: (alg, key, data) => async(() => {
      if (algName(alg).toUpperCase() !== 'HMAC') throw unsupportedAlg('sign', alg);
      const k = hmacKey(key, 'sign');
      const d = bytesOf(data, 'data');
      return fromHost(host.hmacSign(key.algorithm.hash.name, k.buffer, k.byteOffset, k.byteLength, d.buffer, d.byteOffset, d.byteLength));
    }),
    verify: (alg, key, signature, data) => async(() => {
      if (algName(alg).toUpperCase() !== 'HMAC') throw unsupportedAlg('verify', alg);
      const k = hmacKey(key, 'verify');
      const s = bytesOf(signature, 'signature');
      const d = bytesOf(data, 'data');
      return host.hmacVerify(key.algorithm.hash.name, k.buffer, k.byteOffset, k.byteLength, s.buffer, s.byteOffset, s.byteLength,
        d.buffer, d.byteOffset, d.byteLength);
    }),
    timingSafeEqual(a, b) {
      const x = bytesOf(a, 'a'), y = bytesOf(b, 'b');
      if (x.byteLength !== y.byteLength) throw new TypeError('Input buffers must have the same byte length.');
      let diff = 0;
      for (let i = 0; i < x.byteLength; i++) diff |= x[i] ^ y[i];
      return diff === 0;
    },
  };
  for (const m of ['encrypt', 'decrypt', 'generateKey', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey']) {
    subtle[m] = () => Promise.reject(internal.unsupported('crypto.subtle.' + m));
  }

  const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const crypto = {
    subtle,
    getRandomValues(array) {
      if (!INTEGER_ARRAYS.some((C) => array instanceof C)) {
        throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
      }
      if (array.byteLength > 65536) {
        throw new DOMException('The ArrayBufferView\'s byte length (' + array.byteLength + ') exceeds the number of bytes of entropy available via this API (65536)', 'QuotaExceededError');
      }
      const random = new Uint8Array(new ArrayBuffer(host.randomBytes(array.byteLength)));
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(random);
      return array;
    },
    randomUUID() { return host.randomUUID(); },
    DigestStream: class { constructor() { throw internal.unsupported('crypto.DigestStream'); } },
  };
  internal.defineGlobal('crypto', crypto);
  internal.defineGlobal('CryptoKey', CryptoKey);
  internal.defineGlobal('SubtleCrypto', function SubtleCrypto() { throw new TypeError('Illegal constructor'); });
});
