// node:buffer: feross's `buffer` (the Buffer of browserify and webpack, a faithful port of Node's
// Buffer on Uint8Array), plus the module's other exports as workerd has them.
import * as npm from 'buffer/index.js';
import { notImplemented } from '../errors.js';

export const Buffer = npm.Buffer;
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
