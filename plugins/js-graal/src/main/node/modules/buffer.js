// node:buffer: feross's `buffer` (the Buffer of browserify and webpack, a faithful port of Node's
// Buffer on Uint8Array), plus the module's other exports as workerd has them.
import * as npm from 'buffer/index.js';
import { codedError, describe, invalidArgType, notImplemented } from '../errors.js';

export const Buffer = npm.Buffer;
addBase64url(Buffer);
addNodeRangeErrors(Buffer);
const kStringMaxLength = 536870888; // V8's, as workerd reports it
const mod = {
  Buffer,
  SlowBuffer: npm.SlowBuffer,
  INSPECT_MAX_BYTES: npm.INSPECT_MAX_BYTES,
  kMaxLength: npm.kMaxLength,
  kStringMaxLength,
  constants: { MAX_LENGTH: npm.kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
  atob: (s) => globalThis.atob(s),
  btoa: (s) => globalThis.btoa(s),
  isAscii(input) {
    const b = toBytes(input, 'isAscii');
    for (let i = 0; i < b.length; i++) if (b[i] > 0x7f) return false;
    return true;
  },
  isUtf8(input) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(toBytes(input, 'isUtf8'));
      return true;
    } catch {
      return false;
    }
  },
  transcode: notImplemented('buffer.transcode'),
  resolveObjectURL: notImplemented('buffer.resolveObjectURL'),
};
// Blob and File are the platform's (touching them loads their runtime file only when used).
Object.defineProperty(mod, 'Blob', { get: () => globalThis.Blob, enumerable: true, configurable: true });
Object.defineProperty(mod, 'File', { get: () => globalThis.File, enumerable: true, configurable: true });

function toBytes(input, fn) {
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  const e = new TypeError('The "input" argument must be an instance of ArrayBuffer, Buffer, or ArrayBufferView.');
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

export default mod;

// 'base64url' (Node 15+), which feross's Buffer predates: base64 with - and _ and no padding. Its
// base64 decoder already accepts the URL alphabet.
function addBase64url(B) {
  const isUrl = (e) => typeof e === 'string' && e.toLowerCase() === 'base64url';
  const proto = B.prototype;
  const { toString, write, fill } = proto;
  proto.toString = function (encoding, start, end) {
    if (!isUrl(encoding)) return toString.apply(this, arguments);
    return toString.call(this, 'base64', start, end).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  proto.write = function (string, offset, length, encoding) {
    if (isUrl(encoding)) return write.call(this, string, offset, length, 'base64');
    if (isUrl(length)) return write.call(this, string, offset, 'base64');
    if (isUrl(offset)) return write.call(this, string, 'base64');
    return write.apply(this, arguments);
  };
  proto.fill = function (value, offset, end, encoding) {
    if (isUrl(encoding)) return fill.call(this, value, offset, end, 'base64');
    if (isUrl(offset)) return fill.call(this, value, 'base64');
    return fill.apply(this, arguments);
  };
  const { from, byteLength, isEncoding, alloc } = B;
  B.from = function (value, encodingOrOffset, length) {
    if (typeof value === 'string' && isUrl(encodingOrOffset)) return from.call(B, value, 'base64');
    try {
      return from.apply(B, arguments);
    } catch (e) {
      if (e instanceof TypeError && e.code === undefined) {
        throw codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The first argument must be of type string or an instance of Buffer, '
          + 'TypedArray, ArrayBuffer, SharedArrayBuffer, or Array or an Array-like Object. Received ' + describe(value));
      }
      throw e;
    }
  };
  B.byteLength = function (string, encoding) {
    return byteLength.call(B, string, isUrl(encoding) ? 'base64' : encoding);
  };
  B.isEncoding = (encoding) => isUrl(encoding) || isEncoding.call(B, encoding);
  B.alloc = function (size, fill, encoding) {
    return alloc.call(B, size, fill, isUrl(encoding) ? 'base64' : encoding);
  };
}

// Node's coded RangeErrors for the read/write methods (feross's are uncoded and worded otherwise).
function addNodeRangeErrors(B) {
  const proto = B.prototype;
  const sep = (n) => {
    let s = String(n);
    if (Math.abs(n) <= 2 ** 32 || !Number.isInteger(n)) return s;
    let out = '';
    const neg = s[0] === '-' ? 1 : 0;
    let i = s.length;
    for (; i >= neg + 4; i -= 3) out = '_' + s.slice(i - 3, i) + out;
    return s.slice(0, i) + out;
  };
  const checkOffset = (buf, offset, size) => {
    if (offset === undefined) return 0;
    if (typeof offset !== 'number') throw invalidArgType('offset', 'of type number', offset);
    const last = buf.length - size;
    if (!Number.isInteger(offset)) {
      throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be an integer. Received ' + offset);
    }
    if (offset < 0 || offset > last) {
      if (last < 0) throw codedError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
      throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be >= 0 and <= ' + last + '. Received ' + sep(offset));
    }
    return offset;
  };
  const range = (size, signed) => {
    if (size > 3) {
      return signed ? ['>= -(2 ** ' + (size * 8 - 1) + ') and < 2 ** ' + (size * 8 - 1), -(2 ** (size * 8 - 1)), 2 ** (size * 8 - 1) - 1]
        : ['>= 0 and < 2 ** ' + size * 8, 0, 2 ** (size * 8) - 1];
    }
    const min = signed ? -(2 ** (size * 8 - 1)) : 0;
    const max = signed ? 2 ** (size * 8 - 1) - 1 : 2 ** (size * 8) - 1;
    return ['>= ' + min + ' and <= ' + max, min, max];
  };
  const ints = { Int8: [1, true], UInt8: [1, false], Int16LE: [2, true], Int16BE: [2, true], UInt16LE: [2, false], UInt16BE: [2, false],
    Int32LE: [4, true], Int32BE: [4, true], UInt32LE: [4, false], UInt32BE: [4, false] };
  for (const [name, [size, signed]] of Object.entries(ints)) {
    const read = proto['read' + name];
    const write = proto['write' + name];
    const readChecked = function (offset) { return read.call(this, checkOffset(this, offset, size)); };
    const writeChecked = function (value, offset) {
      const [text, min, max] = range(size, signed);
      if (typeof value === 'number' && (value > max || value < min)) {
        throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "value" is out of range. It must be ' + text + '. Received ' + sep(value));
      }
      return write.call(this, value, checkOffset(this, offset, size));
    };
    proto['read' + name] = readChecked;
    proto['write' + name] = writeChecked;
    if (name.startsWith('UInt')) {
      proto['readUint' + name.slice(4)] = readChecked;
      proto['writeUint' + name.slice(4)] = writeChecked;
    }
  }
  for (const [name, size] of Object.entries({ FloatLE: 4, FloatBE: 4, DoubleLE: 8, DoubleBE: 8, BigInt64LE: 8, BigInt64BE: 8,
    BigUInt64LE: 8, BigUInt64BE: 8 })) {
    const read = proto['read' + name];
    const write = proto['write' + name];
    if (read) proto['read' + name] = function (offset) { return read.call(this, checkOffset(this, offset, size)); };
    if (write) proto['write' + name] = function (value, offset) { return write.call(this, value, checkOffset(this, offset, size)); };
  }
}
