// crypto.DigestStream (a workerd extension): a WritableStream whose `digest` promise resolves to
// the digest of the bytes written (UTF-8 for strings) once it is closed. SHA-1/256/384/512, MD5,
// crc32 and crc32c (big-endian) on the JDK; crc64nvme is refused by name.
(function (host, internal) {
  'use strict';
  const P = internal.cryptoParams;
  const WritableStream = internal.builtin('WritableStream');
  const kState = Symbol('DigestStream.state');

  function start(algorithm) {
    let name;
    if (typeof algorithm === 'string') {
      name = algorithm;
    } else if (algorithm === null || algorithm === undefined) {
      throw new TypeError("Failed to construct 'DigestStream': constructor parameter 1 is not of type 'string or HashAlgorithm'.");
    } else {
      name = typeof algorithm === 'object' || typeof algorithm === 'function' ? String(algorithm.name) : String(algorithm);
    }
    if (name === 'crc64nvme') throw internal.unsupported('crypto.DigestStream algorithm crc64nvme');
    return P.W.digestStart(name === 'crc32' || name === 'crc32c' ? name : P.digestName(name));
  }

  class DigestStream extends WritableStream {
    constructor(algorithm) {
      const running = start(algorithm);
      const state = { bytes: 0n, settled: false };
      state.digest = new Promise((resolve, reject) => { state.resolve = resolve; state.reject = reject; });
      state.digest.catch(() => {}); // an aborted stream's digest rejects; unobserved, that is not an error of the Worker
      super({
        write(chunk) {
          let bytes;
          if (chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk)) bytes = P.copyBytes(chunk);
          else if (typeof chunk === 'string') bytes = new TextEncoder().encode(chunk);
          else {
            return Promise.reject(new TypeError('DigestStream is a byte stream but received an object of '
              + 'non-ArrayBuffer/ArrayBufferView/string type on its writable side.'));
          }
          if (bytes.length === 0 || state.settled) return undefined;
          P.W.digestUpdate(running, P.ab(bytes));
          state.bytes += BigInt(bytes.length);
          return undefined;
        },
        close() {
          if (!state.settled) {
            state.settled = true;
            state.resolve(P.fromHost(P.W.digestFinish(running)));
          }
        },
        abort(reason) {
          if (!state.settled) {
            state.settled = true;
            state.reject(reason);
          }
        },
      });
      this[kState] = state;
    }
    get digest() { return this[kState].digest; }
    get bytesWritten() { return this[kState].bytes; }
  }
  internal.DigestStream = DigestStream;
});
