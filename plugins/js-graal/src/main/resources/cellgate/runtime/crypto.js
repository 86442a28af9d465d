// crypto: getRandomValues, randomUUID, crypto.DigestStream and crypto.subtle as workerd offers
// them. This file holds CryptoKey and the SubtleCrypto methods (argument conversion, then
// workerd's checks in its order); the algorithms live in crypto-symmetric.js (AES, HMAC, PBKDF2,
// HKDF), crypto-ec.js (ECDSA, ECDH, Ed25519, X25519) and crypto-rsa.js, each loaded on first use,
// and the cryptography itself is the JDK's (host/crypto/*.java). README.md, "WebCrypto".
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kState = Symbol('CryptoKey.state');
  const CREATE = Symbol('create');
  const P = internal.cryptoParams;
  const { U, dom, args } = P;

  // Algorithm name (case-insensitive) -> [normalized name, implementing file's member, generates?]
  const ALGORITHMS = {};
  const register = (member, generates, names) => names.forEach((n) => { ALGORITHMS[n.toUpperCase()] = [n, member, generates]; });
  register('cryptoSymmetric', true, ['AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW', 'HMAC']);
  register('cryptoSymmetric', false, ['PBKDF2', 'HKDF']);
  register('cryptoRsa', true, ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP']);
  register('cryptoEc', true, ['ECDSA', 'ECDH', 'NODE-ED25519', 'Ed25519', 'X25519']);
  const lookup = (name) => ALGORITHMS[String(name).toUpperCase()];
  const implOf = (key) => internal[lookup(key[kState].name)[1]];
  // workerd's RSA-RAW (an extension for blind signatures) is not implemented: refused by name.
  function refuseUnsupported(name) {
    if (String(name).toUpperCase() === 'RSA-RAW') throw internal.unsupported('crypto.subtle algorithm RSA-RAW');
  }

  // ---- CryptoKey ----

  // A key's state: { name, type, extractable, usages (bit set), alg (the `algorithm` object),
  // kind (workerd's KeyAlgorithm variant, compared by ECDH/X25519), material (the secret bytes,
  // or the host's opaque handle of an asymmetric key) and what the algorithm file adds }.
  function cloneAlgorithm(a) {
    const out = {};
    for (const k in a) {
      const v = a[k];
      out[k] = v instanceof Uint8Array ? v.slice() : v !== null && typeof v === 'object' ? Object.assign({}, v) : v;
    }
    return out;
  }
  // workerd defines these as own properties of each key (JSG instance properties), in this order.
  const OWN = {
    usages: { get() { return P.usageNames(this[kState].usages); }, enumerable: true, configurable: true },
    algorithm: { get() { return cloneAlgorithm(this[kState].alg); }, enumerable: true, configurable: true },
    extractable: { get() { return this[kState].extractable; }, enumerable: true, configurable: true },
    type: { get() { return this[kState].type; }, enumerable: true, configurable: true },
  };
  class CryptoKey {
    constructor(token, state) {
      if (token !== CREATE) throw new TypeError('Illegal constructor');
      this[kState] = state;
      Object.defineProperties(this, OWN);
    }
    static {
      Object.defineProperty(this.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });
    }
  }
  internal.cryptoKeys = {
    create: (state) => new CryptoKey(CREATE, state),
    state: (key) => key[kState],
  };

  // ---- SubtleCrypto ----

  // The operation runs now (it reads its arguments during the call, as workerd does), but its promise
  // settles a microtask later: workerd's never settles before a microtask queued right after the call
  // (WPT's "promise resolved too early"; the settlement-order conformance case).
  const resolved = Promise.resolve();
  const run = (fn) => {
    let value;
    let error;
    let failed = false;
    try {
      value = fn();
    } catch (e) {
      failed = true;
      error = e;
    }
    return new Promise((resolve, reject) => { resolved.then(() => (failed ? reject(error) : resolve(value))); });
  };

  // The key must be of the requested algorithm and allow the usage (workerd: validateOperation).
  function validateOperation(key, requestedName, usage, usageName) {
    const s = key[kState];
    if (String(requestedName).toUpperCase() !== s.name.toUpperCase()) {
      throw dom('Requested algorithm "' + requestedName + '" does not match this CryptoKey\'s algorithm "' + s.name + '".', 'InvalidAccessError');
    }
    if ((s.usages & usage) === 0) {
      throw dom('Requested key usage "' + usageName + '" does not match any usage listed in this CryptoKey.', 'InvalidAccessError');
    }
  }
  function operation(key, op) {
    const impl = implOf(key);
    if (typeof impl[op] !== 'function') {
      const what = op === 'deriveBits' ? 'deriveKey and deriveBits operations are' : op + ' operation is';
      throw dom('The ' + what + ' not implemented for "' + key[kState].name + '".', 'NotSupportedError');
    }
    return impl[op].bind(impl);
  }
  const requireUsages = (key, usages) => {
    if (usages.length === 0 && (key.type === 'secret' || key.type === 'private')) {
      throw dom('Secret/private CryptoKeys must have at least one usage.', 'SyntaxError');
    }
  };

  const BUFFER_FORMATS = ['raw', 'pkcs8', 'spki'];
  function importKeySync(format, data, alg, extractable, usages) {
    if (BUFFER_FORMATS.includes(format)) {
      if (data.bytes === undefined) {
        throw new TypeError('Import data provided for "raw", "pkcs8", or "spki" import formats must be a buffer source.');
      }
    } else if (format === 'jwk') {
      if (data.jwk === undefined) throw new TypeError('Import data provided for "jwk" import format must be a JsonWebKey.');
      if (data.jwk.ext === false && extractable) {
        throw dom('JWK ext field for "' + alg.name + '" is set to false but extractable is true', 'DataError');
      }
    } else {
      throw dom('Unrecognized key import format "' + format + '".', 'NotSupportedError');
    }
    refuseUnsupported(alg.name);
    const entry = lookup(alg.name);
    if (entry === undefined) throw dom('Unrecognized key import algorithm "' + alg.name + '" requested.', 'NotSupportedError');
    const key = internal[entry[1]].importKey(entry[0], format, data, alg, extractable, usages);
    requireUsages(key, usages);
    return key;
  }

  // The length deriveKey asks of deriveBits for the key it will import (the spec's "get key length").
  function derivedKeyLength(alg) {
    const name = String(alg.name).toUpperCase();
    if (name.startsWith('AES-') && ['AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW'].includes(name)) {
      if (alg.length === undefined) throw new TypeError('Missing field "length" in "derivedKeyParams".');
      if (alg.length !== 128 && alg.length !== 192 && alg.length !== 256) {
        throw dom('Derived AES key must be 128, 192, or 256 bits in length but provided ' + alg.length + '.', 'OperationError');
      }
      return alg.length;
    }
    if (name === 'HMAC') {
      if (alg.length !== undefined) {
        if (alg.length > 0) return alg.length;
        throw new TypeError('HMAC key length must be a non-zero unsigned long integer.');
      }
      return P.DIGEST_BLOCK[P.digestName(P.requireHash(alg, 'derivedKeyParams'))] * 8;
    }
    if (name === 'HKDF' || name === 'PBKDF2') return null;
    throw dom('Unrecognized derived key type "' + alg.name + '" requested.', 'NotSupportedError');
  }

  function exported(key, format) {
    if (!key[kState].extractable) {
      throw dom('Attempt to export non-extractable ' + key[kState].name + ' key.', 'InvalidAccessError');
    }
    return operation(key, 'exportKey')(key, format);
  }

  class SubtleCrypto {
    constructor() { throw new TypeError('Illegal constructor'); }
    encrypt(algorithm, key, data) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'EncryptAlgorithm');
        const k = args.key(key, 'encrypt', 2);
        const d = args.buffer(data, 'encrypt', 3);
        validateOperation(k, alg.name, U.encrypt, 'encrypt');
        return operation(k, 'encrypt')(k, alg, d);
      });
    }
    decrypt(algorithm, key, data) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'EncryptAlgorithm');
        const k = args.key(key, 'decrypt', 2);
        const d = args.buffer(data, 'decrypt', 3);
        validateOperation(k, alg.name, U.decrypt, 'decrypt');
        return operation(k, 'decrypt')(k, alg, d);
      });
    }
    sign(algorithm, key, data) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'SignAlgorithm');
        const k = args.key(key, 'sign', 2);
        const d = args.buffer(data, 'sign', 3);
        validateOperation(k, alg.name, U.sign, 'sign');
        return operation(k, 'sign')(k, alg, d);
      });
    }
    verify(algorithm, key, signature, data) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'SignAlgorithm');
        const k = args.key(key, 'verify', 2);
        const sig = args.buffer(signature, 'verify', 3);
        const d = args.buffer(data, 'verify', 4);
        validateOperation(k, alg.name, U.verify, 'verify');
        return operation(k, 'verify')(k, alg, sig, d);
      });
    }
    digest(algorithm, data) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'HashAlgorithm');
        const d = args.buffer(data, 'digest', 2);
        return P.fromHost(P.W.digest(P.digestName(alg.name), P.ab(d)));
      });
    }
    generateKey(algorithm, extractable, keyUsages) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'GenerateKeyAlgorithm');
        const usages = args.usages(keyUsages, 'generateKey', 3);
        refuseUnsupported(alg.name);
        const entry = lookup(alg.name);
        if (entry === undefined || !entry[2]) {
          throw dom('Unrecognized key generation algorithm "' + alg.name + '" requested.', 'NotSupportedError');
        }
        const result = internal[entry[1]].generateKey(entry[0], alg, !!extractable, usages);
        if (result instanceof CryptoKey) {
          requireUsages(result, usages);
        } else if (result.privateKey[kState].usages === 0) {
          throw dom('Attempt to generate asymmetric keys with no valid private key usages.', 'SyntaxError');
        }
        return result;
      });
    }
    deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, keyUsages) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'DeriveKeyAlgorithm');
        const k = args.key(baseKey, 'deriveKey', 2);
        const derived = P.algorithm(derivedKeyAlgorithm, 'ImportKeyAlgorithm');
        const usages = args.usages(keyUsages, 'deriveKey', 5);
        validateOperation(k, alg.name, U.deriveKey, 'deriveKey');
        const length = derivedKeyLength(derived);
        const secret = new Uint8Array(operation(k, 'deriveBits')(k, alg, length));
        return importKeySync('raw', { bytes: secret }, derived, !!extractable, usages);
      });
    }
    deriveBits(algorithm, baseKey, length) {
      return run(() => {
        const alg = P.algorithm(algorithm, 'DeriveKeyAlgorithm');
        const k = args.key(baseKey, 'deriveBits', 2);
        let bits = null;
        if (length !== undefined && length !== null) {
          bits = Number(length) | 0;
          if (bits < 0) throw new TypeError('deriveBits length must be an unsigned long integer.');
        }
        validateOperation(k, alg.name, U.deriveBits, 'deriveBits');
        return operation(k, 'deriveBits')(k, alg, bits);
      });
    }
    importKey(format, keyData, algorithm, extractable, keyUsages) {
      return run(() => {
        const f = String(format);
        const data = args.keyData(keyData);
        const alg = P.algorithm(algorithm, 'ImportKeyAlgorithm');
        const usages = args.usages(keyUsages, 'importKey', 5);
        return importKeySync(f, data, alg, !!extractable, usages);
      });
    }
    exportKey(format, key) {
      return run(() => {
        const f = String(format);
        return exported(args.key(key, 'exportKey', 2), f);
      });
    }
    wrapKey(format, key, wrappingKey, wrapAlgorithm) {
      return run(() => {
        const f = String(format);
        const k = args.key(key, 'wrapKey', 2);
        const w = args.key(wrappingKey, 'wrapKey', 3);
        const alg = P.algorithm(wrapAlgorithm, 'EncryptAlgorithm');
        validateOperation(w, alg.name, U.wrapKey, 'wrapKey');
        const out = exported(k, f);
        const bytes = out instanceof ArrayBuffer ? new Uint8Array(out) : new TextEncoder().encode(JSON.stringify(out));
        return operation(w, 'wrapKey')(w, alg, bytes);
      });
    }
    unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, keyUsages) {
      return run(() => {
        const f = String(format);
        const wrapped = args.buffer(wrappedKey, 'unwrapKey', 2);
        const w = args.key(unwrappingKey, 'unwrapKey', 3);
        const alg = P.algorithm(unwrapAlgorithm, 'EncryptAlgorithm');
        const keyAlg = P.algorithm(unwrappedKeyAlgorithm, 'ImportKeyAlgorithm');
        const usages = args.usages(keyUsages, 'unwrapKey', 7);
        validateOperation(w, alg.name, U.unwrapKey, 'unwrapKey');
        const bytes = new Uint8Array(operation(w, 'unwrapKey')(w, alg, wrapped));
        let data;
        if (f === 'jwk') {
          const parsed = JSON.parse(new TextDecoder().decode(bytes));
          if (parsed === null || typeof parsed !== 'object') throw dom('Missing "kty" field or corrupt JSON unwrapping key?', 'DataError');
          data = { jwk: P.jwk(parsed) };
        } else {
          data = { bytes };
        }
        return importKeySync(f, data, keyAlg, !!extractable, usages);
      });
    }
    static {
      Object.defineProperty(this.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });
    }
    timingSafeEqual(a, b) {
      const x = args.buffer(a, 'timingSafeEqual', 1);
      const y = args.buffer(b, 'timingSafeEqual', 2);
      if (x.byteLength !== y.byteLength) throw new TypeError('Input buffers must have the same byte length.');
      return P.W.equal(P.ab(x), P.ab(y));
    }
  }
  const subtle = Object.create(SubtleCrypto.prototype);

  // ---- Crypto ----

  const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  class Crypto {
    constructor() { throw new TypeError('Illegal constructor'); }
    get subtle() { return subtle; }
    getRandomValues(array) {
      if (!ArrayBuffer.isView(array)) {
        throw new TypeError("Failed to execute 'getRandomValues' on 'Crypto': parameter 1 is not of type 'JsArrayBufferView'.");
      }
      if (!INTEGER_ARRAYS.some((C) => array instanceof C)) {
        throw dom('ArrayBufferView argument to getRandomValues() must be an integer-typed view.', 'TypeMismatchError');
      }
      if (array.byteLength > 65536) {
        throw dom('getRandomValues() only accepts buffers of size <= 64K but provided ' + array.byteLength + ' bytes.', 'QuotaExceededError');
      }
      const random = new Uint8Array(new ArrayBuffer(host.randomBytes(array.byteLength)));
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(random);
      return array;
    }
    randomUUID() { return host.randomUUID(); }
    get DigestStream() { return internal.DigestStream; }
    static {
      Object.defineProperty(this.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });
    }
  }
  const crypto = Object.create(Crypto.prototype);
  internal.defineGlobal('crypto', crypto);
  internal.defineGlobal('Crypto', Crypto);
  internal.defineGlobal('CryptoKey', CryptoKey);
  internal.defineGlobal('SubtleCrypto', SubtleCrypto);
});
