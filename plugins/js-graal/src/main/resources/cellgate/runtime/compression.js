// CompressionStream and DecompressionStream (gzip, deflate, deflate-raw) on java.util.zip
// (host/Compressor.java, host/Decompressor.java): each written chunk goes to the host, and the
// output comes back in pieces of at most 4 KiB, each enqueued once a reader took the one before,
// so the byte pipe's backpressure reaches zlib itself. Errors carry workerd's messages.
(function (host, internal) {
  'use strict';
  const FORMATS = ['deflate', 'deflate-raw', 'gzip'];
  const BAD_FORMAT = "The compression format must be either 'deflate', 'deflate-raw' or 'gzip'.";
  const TransformStream = internal.builtin('TransformStream');

  function formatOf(args, what) {
    if (args.length === 0 || args[0] === undefined) {
      throw new TypeError("Failed to construct '" + what + "': constructor parameter 1 is not of type 'string'.");
    }
    const f = String(args[0]);
    if (!FORMATS.includes(f)) throw new TypeError(BAD_FORMAT);
    return f;
  }
  const toBytes = (bb) => new Uint8Array(new ArrayBuffer(bb)).slice();
  // The host's output, piece by piece; `codec.error()` (a decompressor's) turns a failure into a TypeError.
  function pieces(codec, failed) {
    return {
      next() {
        const bb = codec.next();
        if (bb !== null && bb !== undefined) return toBytes(bb);
        const msg = failed();
        if (msg !== null && msg !== undefined) throw new TypeError(msg);
        return null;
      },
    };
  }

  class CompressionStream extends TransformStream {
    constructor(format) {
      super(internal.TRANSFORM_PAIR);
      const codec = host.compressor(formatOf(arguments, 'CompressionStream'));
      const none = () => null;
      const { readable, writable } = internal.newBytePipe({
        transform(bytes) { codec.push(bytes.buffer, bytes.byteOffset, bytes.byteLength); return pieces(codec, none); },
        flush() { codec.finish(); return pieces(codec, none); },
        abort() { codec.end(); },
      });
      internal.adoptTransform(this, readable, writable);
    }
    get [Symbol.toStringTag]() { return 'CompressionStream'; }
  }

  class DecompressionStream extends TransformStream {
    constructor(format) {
      super(internal.TRANSFORM_PAIR);
      const codec = host.decompressor(formatOf(arguments, 'DecompressionStream'), internal.compat.strictCompression);
      const failed = () => codec.error();
      const { readable, writable } = internal.newBytePipe({
        transform(bytes) {
          if (!codec.push(bytes.buffer, bytes.byteOffset, bytes.byteLength)) throw new TypeError(codec.error());
          return pieces(codec, failed);
        },
        flush() {
          const rest = pieces(codec, failed);
          return {
            next() {
              const p = rest.next();
              if (p !== null) return p;
              if (!codec.finish()) throw new TypeError(codec.error());
              return null;
            },
          };
        },
        abort() { codec.end(); },
      });
      internal.adoptTransform(this, readable, writable);
    }
    get [Symbol.toStringTag]() { return 'DecompressionStream'; }
  }

  internal.defineGlobal('CompressionStream', CompressionStream);
  internal.defineGlobal('DecompressionStream', DecompressionStream);
});
