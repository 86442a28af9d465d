// node:zlib: `browserify-zlib` (Node's zlib API over pako, a faithful port of zlib) for the
// streaming classes, and the JDK's zlib (java.util.zip, host/NodeHost) for the one-shot
// functions — same algorithm, same bytes, much faster. Options the JDK cannot honour
// (windowBits, memLevel, chunk sizes, flush modes…) take the pako path. Brotli and zstd throw.
import * as pz from 'browserify-zlib/lib/index.js';
import { Buffer } from './buffer.js';
import { nodeHost, fromHost } from '../host.js';
import { codedError, invalidArgType, notImplemented } from '../errors.js';

const ZLIB = 0, RAW = 1, GZIP = 2, AUTO = 3;
const FAST_OPTIONS = new Set(['level', 'strategy', 'dictionary']);

function input(buffer) {
  if (typeof buffer === 'string') return Buffer.from(buffer);
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
  throw invalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer', buffer);
}

function fast(opts) {
  if (opts === undefined || opts === null) return true;
  for (const k of Object.keys(opts)) if (!FAST_OPTIONS.has(k) && opts[k] !== undefined) return false;
  return true;
}

function dictionaryOf(opts) {
  const d = opts && opts.dictionary;
  return d === undefined ? new Uint8Array(0) : input(d);
}

function hostDeflate(mode, buffer, opts) {
  const data = input(buffer);
  const level = opts && opts.level !== undefined ? opts.level : -1;
  const strategy = opts && opts.strategy !== undefined ? opts.strategy : 0;
  if (!Number.isInteger(level) || level < -1 || level > 9) {
    throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "options.level" is out of range. It must be >= -1 and <= 9. Received ' + level);
  }
  const dict = dictionaryOf(opts);
  return Buffer.from(fromHost(nodeHost().deflate(mode, level, strategy, dict.buffer, dict.byteOffset, dict.byteLength,
    data.buffer, data.byteOffset, data.byteLength)).buffer);
}

function hostInflate(mode, buffer, opts) {
  const data = input(buffer);
  const dict = dictionaryOf(opts);
  const r = nodeHost().inflate(mode, dict.buffer, dict.byteOffset, dict.byteLength, data.buffer, data.byteOffset, data.byteLength);
  if (typeof r === 'string') {
    const i = r.indexOf(':');
    // workerd's zlib errors are plain Errors with zlib's message (Node adds code and errno).
    throw new Error(r.slice(i + 1));
  }
  return Buffer.from(fromHost(r).buffer);
}

const zlib = Object.assign({}, pz);
const oneShot = [
  ['deflate', (b, o) => hostDeflate(ZLIB, b, o)], ['deflateRaw', (b, o) => hostDeflate(RAW, b, o)],
  ['gzip', (b, o) => hostDeflate(GZIP, b, o)], ['inflate', (b, o) => hostInflate(ZLIB, b, o)],
  ['inflateRaw', (b, o) => hostInflate(RAW, b, o)], ['gunzip', (b, o) => hostInflate(GZIP, b, o)],
  ['unzip', (b, o) => hostInflate(AUTO, b, o)],
];
for (const [name, viaHost] of oneShot) {
  const viaPako = pz[name + 'Sync'];
  const pakoAsync = pz[name];
  zlib[name + 'Sync'] = function (buffer, opts) {
    return fast(opts) ? viaHost(buffer, opts) : viaPako(buffer, opts);
  };
  zlib[name] = function (buffer, opts, callback) {
    if (typeof opts === 'function') { callback = opts; opts = {}; }
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    if (!fast(opts)) return pakoAsync(buffer, opts, callback);
    let result, error = null;
    try { result = viaHost(buffer, opts); } catch (e) { error = e; }
    queueMicrotask(() => (error ? callback(error) : callback(null, result)));
  };
}

zlib.crc32 = function crc32(data, value = 0) {
  const d = typeof data === 'string' ? Buffer.from(data) : data;
  if (!ArrayBuffer.isView(d)) throw invalidArgType('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
  if (typeof value !== 'number') throw invalidArgType('value', 'of type number', value);
  const b = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  return nodeHost().crc32(b.buffer, b.byteOffset, b.byteLength, value);
};

for (const name of ['brotliCompress', 'brotliCompressSync', 'brotliDecompress', 'brotliDecompressSync', 'createBrotliCompress',
  'createBrotliDecompress', 'BrotliCompress', 'BrotliDecompress']) {
  zlib[name] = notImplemented('zlib.' + name);
}
// Node's zlib.constants: the numeric constants browserify-zlib exports one by one.
zlib.constants = {};
for (const k of Object.keys(pz)) if (/^Z_|^DEFLATE|^INFLATE|^GZIP|^GUNZIP|^UNZIP|^DEFLATERAW|^INFLATERAW/.test(k) && typeof pz[k] === 'number') zlib.constants[k] = pz[k];
export default zlib;
