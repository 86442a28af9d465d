// WebCrypto arguments as workerd reads them: its C++ bindings (JSG) convert every argument and
// algorithm dictionary before the operation runs, with their own coercions and messages. This
// file reproduces them (field by field, in declaration order), plus key usages, JWK members,
// digest names, base64url and the errors the other crypto-*.js files throw. See README.md,
// "WebCrypto".
(function (host, internal) {
  'use strict';
  const W = host.webCrypto();

  const dom = (message, name) => new DOMException(message, name);
  const dataError = (message) => dom(message, 'DataError');
  const operationError = (message) => dom(message, 'OperationError');
  const failed = (method, index, type) =>
    new TypeError("Failed to execute '" + method + "' on 'SubtleCrypto': parameter " + index + " is not of type '" + type + "'.");
  // JSG names a dictionary type by its mangled C++ name when it is given null or undefined.
  const nullDictionary = (type) =>
    new TypeError('Cannot initialize N7workerd3api12SubtleCrypto' + type.length + type + 'E with required members from an undefined or null value.');
  const wrongField = (field, dict, type) =>
    new TypeError("Incorrect type for the '" + field + "' field on '" + dict + "': the provided value is not of type '" + type + "'.");

  const isBuffer = (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v);
  // A copy, as workerd copies what it is given: later changes to the caller's buffer do not matter.
  function copyBytes(v) {
    if (v instanceof ArrayBuffer) return new Uint8Array(v.slice(0));
    return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  }

  // Field readers: JSG's conversions of optional members (undefined means absent).
  const READ = {
    string: (v) => String(v), // a required kj::String member: undefined becomes "undefined"
    ostring: (v) => (v === undefined ? undefined : String(v)),
    oint: (v) => (v === undefined ? undefined : Number(v) | 0),
    obool: (v) => (v === undefined ? undefined : !!v),
    obuffer: (v, field, dict) => {
      if (v === undefined) return undefined;
      if (!isBuffer(v)) throw wrongField(field, dict, 'JsBufferSource');
      return copyBytes(v);
    },
    ohash: (v) => {
      if (v === undefined) return undefined;
      if (v === null) throw nullDictionary('HashAlgorithm');
      return typeof v === 'object' || typeof v === 'function' ? String(v.name) : String(v);
    },
    okey: (v, field, dict) => {
      if (v === undefined) return undefined;
      if (!internal.isInstance('CryptoKey', v)) throw wrongField(field, dict, 'CryptoKey');
      return v;
    },
    ostrings: (v, field, dict) => {
      if (v === undefined) return undefined;
      if (!Array.isArray(v)) throw wrongField(field, dict, 'Array');
      return v.map(String);
    },
    oarray: (v, field, dict) => {
      if (v === undefined) return undefined;
      if (!Array.isArray(v)) throw wrongField(field, dict, 'Array');
      return v;
    },
  };
  // The dictionaries' members in declaration order (workerd's crypto.h).
  const DICTIONARIES = {
    HashAlgorithm: [['name', 'string']],
    EncryptAlgorithm: [['name', 'string'], ['iv', 'obuffer'], ['additionalData', 'obuffer'], ['tagLength', 'oint'],
      ['counter', 'obuffer'], ['length', 'oint'], ['label', 'obuffer']],
    SignAlgorithm: [['name', 'string'], ['hash', 'ohash'], ['dataLength', 'oint'], ['saltLength', 'oint']],
    GenerateKeyAlgorithm: [['name', 'string'], ['hash', 'ohash'], ['modulusLength', 'oint'], ['publicExponent', 'obuffer'],
      ['length', 'oint'], ['namedCurve', 'ostring']],
    ImportKeyAlgorithm: [['name', 'string'], ['hash', 'ohash'], ['length', 'oint'], ['namedCurve', 'ostring'], ['compressed', 'obool']],
    DeriveKeyAlgorithm: [['name', 'string'], ['salt', 'obuffer'], ['iterations', 'oint'], ['hash', 'ohash'], ['public', 'okey'],
      ['info', 'obuffer']],
    JsonWebKey: [['kty', 'string'], ['use', 'ostring'], ['key_ops', 'ostrings'], ['alg', 'ostring'], ['ext', 'obool'],
      ['crv', 'ostring'], ['x', 'ostring'], ['y', 'ostring'], ['d', 'ostring'], ['n', 'ostring'], ['e', 'ostring'],
      ['p', 'ostring'], ['q', 'ostring'], ['dp', 'ostring'], ['dq', 'ostring'], ['qi', 'ostring'], ['oth', 'oarray'],
      ['k', 'ostring']],
  };

  function dictionary(value, type) {
    const out = {};
    for (const [field, kind] of DICTIONARIES[type]) {
      const v = READ[kind](value[field], field, type);
      if (v !== undefined) out[field] = v;
    }
    return out;
  }

  // `string or <Dictionary>`: a string is the name; an object is read as the dictionary;
  // null/undefined is JSG's error; any other primitive becomes its string.
  function algorithm(value, type) {
    if (typeof value === 'string') return { name: value };
    if (value === null || value === undefined) throw nullDictionary(type);
    if (typeof value === 'object' || typeof value === 'function') return dictionary(value, type);
    return { name: String(value) };
  }

  function jwk(value) {
    if (value === null || value === undefined) throw nullDictionary('JsonWebKey');
    return dictionary(value, 'JsonWebKey');
  }

  const args = {
    buffer(value, method, index) {
      if (!isBuffer(value)) throw failed(method, index, 'JsBufferSource');
      return copyBytes(value);
    },
    key(value, method, index) {
      if (!internal.isInstance('CryptoKey', value)) throw failed(method, index, 'CryptoKey');
      return value;
    },
    usages(value, method, index) {
      if (!Array.isArray(value)) throw failed(method, index, 'Array');
      return value.map(String);
    },
    // importKey's keyData: a buffer source or a JsonWebKey.
    keyData(value) {
      if (isBuffer(value)) return { bytes: copyBytes(value) };
      if (value === null || value === undefined) throw nullDictionary('JsonWebKey');
      if (typeof value !== 'object' && typeof value !== 'function') throw failed('importKey', 2, 'JsBufferSource or JsonWebKey');
      return { jwk: jwk(value) };
    },
  };

  // Key usages: workerd's recognized set, in its canonical order (CryptoKey.usages lists them so).
  const USAGES = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey'];
  const U = {};
  USAGES.forEach((u, i) => { U[u] = 1 << i; });
  U.PUBLIC = U.encrypt | U.verify | U.wrapKey;
  U.PRIVATE = U.decrypt | U.sign | U.unwrapKey | U.deriveKey | U.deriveBits;
  U.DERIVE = U.deriveKey | U.deriveBits;
  const CONTEXT = { generate: 'generate', secret: 'import secret', public: 'import public', private: 'import private' };

  function usageSet(name, context, usages, allowed) {
    let set = 0;
    for (const u of usages) {
      const bit = Object.prototype.hasOwnProperty.call(U, u) && USAGES.includes(u) ? U[u] : 0;
      if (bit === 0 || (bit & allowed) === 0) {
        throw dom('Attempt to ' + CONTEXT[context] + ' ' + name + ' key with invalid usage "' + u + '".', 'SyntaxError');
      }
      set |= bit;
    }
    return set;
  }
  const usageNames = (set) => USAGES.filter((u) => (set & U[u]) !== 0);

  // Digest names, case-insensitive; MD5 is workerd's extension.
  const DIGESTS = { 'SHA-1': 'SHA-1', 'SHA-256': 'SHA-256', 'SHA-384': 'SHA-384', 'SHA-512': 'SHA-512', MD5: 'MD5' };
  const DIGEST_SIZE = { 'SHA-1': 20, 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64, MD5: 16 };
  const DIGEST_BLOCK = { 'SHA-1': 64, 'SHA-256': 64, 'SHA-384': 128, 'SHA-512': 128, MD5: 64 };
  function digestName(name) {
    const d = DIGESTS[String(name).toUpperCase()];
    if (d === undefined) throw dom('Unrecognized or unimplemented digest algorithm requested.', 'NotSupportedError');
    return d;
  }
  function requireHash(alg, where) {
    if (alg.hash === undefined) throw new TypeError('Missing field "hash" in "' + (where || 'algorithm') + '".');
    return alg.hash;
  }

  // base64url (RFC 4648 §5) for JWK members; null when the text is not base64url.
  function fromBase64Url(text) {
    if (typeof text !== 'string') return null;
    let t = text.replace(/-/g, '+').replace(/_/g, '/');
    while (t.endsWith('=')) t = t.slice(0, -1);
    if (t.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(t)) return null;
    const bin = atob(t + '==='.slice((t.length + 3) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function toBase64Url(bytes) {
    let bin = '';
    for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  // Host calls: buffers go as exact ArrayBuffers, results come back as fresh ArrayBuffers; a
  // null result means the host reported a WebCrypto error (WebCryptoHost.takeError).
  const ab = (u8) => (u8 === undefined || u8 === null ? null
    : u8.byteOffset === 0 && u8.byteLength === u8.buffer.byteLength ? u8.buffer : u8.slice().buffer);
  function hostError() {
    const s = W.takeError();
    const i = s.indexOf('\u0000');
    const name = s.slice(0, i);
    const message = s.slice(i + 1);
    return name === 'TypeError' ? new TypeError(message) : dom(message, name);
  }
  function checked(result) {
    if (result === null) throw hostError();
    return result;
  }
  const bytesFromHost = (bb) => new Uint8Array(new Uint8Array(new ArrayBuffer(checked(bb))));
  const fromHost = (bb) => bytesFromHost(bb).buffer;

  internal.cryptoParams = {
    W, dom, dataError, operationError, algorithm, jwk, args, U, usageSet, usageNames, digestName, requireHash, DIGEST_SIZE, DIGEST_BLOCK,
    fromBase64Url, toBase64Url, ab, checked, fromHost, bytesFromHost, copyBytes, isBuffer,
  };
});
