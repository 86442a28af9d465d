// node:crypto, the parts cellgate provides: hashes and HMACs (createHash, createHmac, hash),
// random values, timingSafeEqual, pbkdf2 and hkdf — all on the JDK (host/NodeHost: MessageDigest,
// Mac, SecureRandom through the platform's crypto) — and webcrypto/subtle, which are the global
// crypto. Ciphers, signatures, key objects, Diffie-Hellman, primes and scrypt (the JDK has no
// scrypt) throw naming themselves.
import { Buffer } from './buffer.js';
import { nodeHost, fromHost } from '../host.js';
import { codedError, invalidArgType, outOfRange } from '../errors.js';

// Node's names (lower-cased) → [JCA digest, JCA Mac].
const HASHES = {
  md5: ['MD5', 'HmacMD5'], sha1: ['SHA-1', 'HmacSHA1'], sha224: ['SHA-224', 'HmacSHA224'], sha256: ['SHA-256', 'HmacSHA256'],
  sha384: ['SHA-384', 'HmacSHA384'], sha512: ['SHA-512', 'HmacSHA512'], 'sha512-224': ['SHA-512/224', 'HmacSHA512/224'],
  'sha512-256': ['SHA-512/256', 'HmacSHA512/256'], 'sha3-256': ['SHA3-256', 'HmacSHA3-256'], 'sha3-384': ['SHA3-384', 'HmacSHA3-384'],
  'sha3-512': ['SHA3-512', 'HmacSHA3-512'],
};
const ALIASES = { 'rsa-md5': 'md5', 'rsa-sha1': 'sha1', 'rsa-sha256': 'sha256', 'rsa-sha384': 'sha384', 'rsa-sha512': 'sha512',
  'sha-1': 'sha1', 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

function hashOf(algorithm) {
  if (typeof algorithm !== 'string') throw invalidArgType('algorithm', 'of type string', algorithm);
  const k = algorithm.toLowerCase();
  const h = HASHES[ALIASES[k] || k];
  if (!h) throw new Error('Digest method not supported');
  return h;
}

function bytes(data, encoding, name) {
  if (typeof data === 'string') return Buffer.from(data, encoding);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function concat(chunks) {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = new Uint8Array(n);
  let p = 0;
  for (const c of chunks) { out.set(c, p); p += c.byteLength; }
  return out;
}

function encode(buf, encoding) {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return encoding === undefined || encoding === 'buffer' ? b : b.toString(encoding);
}

const kState = Symbol('Hash.state');

// What Hash and Hmac share: data accumulates until digest() hands it to the host in one call.
class Accumulator {
  update(data, encoding) {
    const s = this[kState];
    if (s.done) throw codedError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    s.chunks.push(Uint8Array.from(bytes(data, encoding, 'data')));
    return this;
  }
  finish() {
    const s = this[kState];
    s.done = true;
    return concat(s.chunks);
  }
}

class Hash extends Accumulator {
  constructor(algorithm, options) {
    super();
    this[kState] = { jca: hashOf(algorithm)[0], algorithm, chunks: [], done: false };
  }
  digest(encoding) {
    const s = this[kState];
    if (s.done) throw codedError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    const d = this.finish();
    return encode(fromHost(nodeHost().digest(s.jca, d.buffer, d.byteOffset, d.byteLength)), encoding);
  }
  copy() {
    const s = this[kState];
    if (s.done) throw codedError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    const c = new Hash(s.algorithm);
    c[kState].chunks = s.chunks.slice();
    return c;
  }
}

class Hmac extends Accumulator {
  constructor(algorithm, key, options) {
    super();
    const mac = hashOf(algorithm)[1];
    if (key === null || key === undefined) throw invalidArgType('key', 'of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey', key);
    this[kState] = { mac, key: Uint8Array.from(bytes(key, options && options.encoding, 'key')), chunks: [], done: false };
  }
  digest(encoding) {
    const s = this[kState];
    if (s.done) return encode(new Uint8Array(0), encoding); // Node: a second digest() of an Hmac is empty
    const d = this.finish();
    return encode(fromHost(nodeHost().hmac(s.mac, s.key.buffer, s.key.byteOffset, s.key.byteLength, d.buffer, d.byteOffset, d.byteLength)), encoding);
  }
}

function randomBytes(size, callback) {
  if (typeof size !== 'number' || Number.isNaN(size)) throw invalidArgType('size', 'of type number', size);
  if (size < 0 || size > 2147483647) throw outOfRange('size', '>= 0 && <= 2147483647', size);
  const b = Buffer.alloc(size);
  if (size > 0) crypto.getRandomValues(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  if (typeof callback === 'function') { queueMicrotask(() => callback(null, b)); return undefined; }
  return b;
}

function randomFillSync(buf, offset = 0, size) {
  if (!ArrayBuffer.isView(buf) && !(buf instanceof ArrayBuffer)) throw invalidArgType('buf', 'an instance of ArrayBuffer or ArrayBufferView', buf);
  const u = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const end = size === undefined ? u.length : offset + size;
  for (let p = offset; p < end; p += 65536) crypto.getRandomValues(u.subarray(p, Math.min(end, p + 65536)));
  return buf;
}

function randomInt(min, max, callback) {
  if (max === undefined || typeof max === 'function') { callback = max; max = min; min = 0; }
  if (!Number.isSafeInteger(min)) throw invalidArgType('min', 'a safe integer', min);
  if (!Number.isSafeInteger(max)) throw invalidArgType('max', 'a safe integer', max);
  if (max <= min) {
    throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be greater than the value of "min" (' + min + '). Received ' + max);
  }
  const range = max - min;
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do {
    const b = randomBytes(6);
    x = b.readUIntBE(0, 6);
  } while (x >= limit);
  const r = min + (x % range);
  if (typeof callback === 'function') { queueMicrotask(() => callback(null, r)); return undefined; }
  return r;
}

function timingSafeEqual(a, b) {
  if (!ArrayBuffer.isView(a) && !(a instanceof ArrayBuffer)) throw invalidArgType('buf1', 'an instance of ArrayBuffer, Buffer, TypedArray, or DataView', a);
  if (!ArrayBuffer.isView(b) && !(b instanceof ArrayBuffer)) throw invalidArgType('buf2', 'an instance of ArrayBuffer, Buffer, TypedArray, or DataView', b);
  const x = bytes(a), y = bytes(b);
  if (x.byteLength !== y.byteLength) {
    throw new TypeError('Input buffers must have the same byte length.');
  }
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const p = bytes(password, undefined, 'password'), s = bytes(salt, undefined, 'salt');
  if (typeof iterations !== 'number') throw invalidArgType('iterations', 'of type number', iterations);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 2147483647) throw outOfRange('iterations', '>= 1 && <= 2147483647', iterations);
  if (typeof keylen !== 'number') throw invalidArgType('keylen', 'of type number', keylen);
  if (!Number.isInteger(keylen) || keylen < 0 || keylen > 2147483647) throw outOfRange('keylen', '>= 0 && <= 2147483647', keylen);
  if (typeof digest !== 'string') throw invalidArgType('digest', 'of type string', digest);
  const mac = (HASHES[ALIASES[digest.toLowerCase()] || digest.toLowerCase()] || [])[1];
  if (!mac) throw new TypeError('Invalid Pbkdf2 digest: ' + digest + '.');
  return Buffer.from(fromHost(nodeHost().pbkdf2(mac, p.buffer, p.byteOffset, p.byteLength, s.buffer, s.byteOffset, s.byteLength,
    iterations, keylen)).buffer);
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  if (typeof digest !== 'string') throw invalidArgType('digest', 'of type string', digest);
  const mac = (HASHES[ALIASES[digest.toLowerCase()] || digest.toLowerCase()] || [])[1];
  if (!mac) throw codedError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: ' + digest);
  const k = bytes(ikm, undefined, 'ikm'), s = bytes(salt, undefined, 'salt'), i = bytes(info, undefined, 'info');
  if (typeof keylen !== 'number') throw invalidArgType('length', 'of type number', keylen);
  const hashLen = { HmacMD5: 16, HmacSHA1: 20, HmacSHA224: 28, HmacSHA256: 32, HmacSHA384: 48, HmacSHA512: 64 }[mac] || 64;
  if (keylen > 255 * hashLen) throw codedError(RangeError, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
  const out = fromHost(nodeHost().hkdf(mac, k.buffer, k.byteOffset, k.byteLength, s.buffer, s.byteOffset, s.byteLength,
    i.buffer, i.byteOffset, i.byteLength, keylen));
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

const callbackOf = (args) => {
  const cb = args[args.length - 1];
  if (typeof cb !== 'function') throw invalidArgType('callback', 'of type function', cb);
  return cb;
};

const mod = {
  Hash, Hmac,
  createHash: (algorithm, options) => new Hash(algorithm, options),
  createHmac: (algorithm, key, options) => new Hmac(algorithm, key, options),
  hash: (algorithm, data, outputEncoding = 'hex') => new Hash(algorithm).update(data).digest(outputEncoding),
  getHashes: () => ['md5', 'rsa-md5', 'rsa-sha1', 'rsa-sha256', 'rsa-sha384', 'rsa-sha512', 'sha1', 'sha224', 'sha256', 'sha3-256',
    'sha3-384', 'sha3-512', 'sha384', 'sha512', 'sha512-224', 'sha512-256'],
  randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomInt, timingSafeEqual,
  randomFill(buf, ...rest) {
    const cb = callbackOf(rest);
    const [offset, size] = rest.length > 1 ? rest.slice(0, -1) : [];
    randomFillSync(buf, offset, size);
    queueMicrotask(() => cb(null, buf));
  },
  randomUUID: () => crypto.randomUUID(),
  getRandomValues: (a) => crypto.getRandomValues(a),
  pbkdf2Sync,
  pbkdf2(password, salt, iterations, keylen, digest, callback) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    const r = pbkdf2Sync(password, salt, iterations, keylen, digest);
    queueMicrotask(() => callback(null, r));
  },
  hkdfSync,
  hkdf(digest, ikm, salt, info, keylen, callback) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    const r = hkdfSync(digest, ikm, salt, info, keylen);
    queueMicrotask(() => callback(null, r));
  },
  getFips: () => 0,
  constants: {},
};
Object.defineProperty(mod, 'webcrypto', { get: () => globalThis.crypto, enumerable: true, configurable: true });
Object.defineProperty(mod, 'subtle', { get: () => globalThis.crypto.subtle, enumerable: true, configurable: true });
export default mod;
