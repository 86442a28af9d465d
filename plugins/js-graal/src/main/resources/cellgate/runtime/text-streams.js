// TextEncoderStream and TextDecoderStream: TransformStreams around the platform's TextEncoder and
// TextDecoder (GraalJS's, js.text-encoding), as the Encoding standard defines them; workerd's
// messages. A surrogate pair split across two written strings is encoded whole.
(function (host, internal) {
  'use strict';
  const kEncoding = Symbol('TextDecoderStream.decoder');
  const TransformStream = internal.builtin('TransformStream');
  const NOT_BYTES = 'This TransformStream is being used as a byte stream, but received a value that is not a BufferSource.';

  class TextEncoderStream extends TransformStream {
    constructor() {
      const encoder = internal.encoder;
      let pendingHigh = '';
      super({
        transform(chunk, c) {
          let s = pendingHigh + String(chunk);
          pendingHigh = '';
          const last = s.charCodeAt(s.length - 1);
          if (last >= 0xd800 && last <= 0xdbff) { pendingHigh = s[s.length - 1]; s = s.slice(0, -1); }
          if (s.length > 0) c.enqueue(encoder.encode(s));
        },
        flush(c) { if (pendingHigh !== '') c.enqueue(new Uint8Array([0xef, 0xbf, 0xbd])); },
      });
    }
    get encoding() { return 'utf-8'; }
    get [Symbol.toStringTag]() { return 'TextEncoderStream'; }
  }

  class TextDecoderStream extends TransformStream {
    constructor(label = 'utf-8', options = undefined) {
      const opts = options === undefined || options === null ? {} : options;
      let decoder;
      try {
        decoder = new TextDecoder(String(label), { fatal: !!opts.fatal, ignoreBOM: !!opts.ignoreBOM });
      } catch {
        throw new RangeError('"' + String(label) + '" is not a valid encoding.');
      }
      const decode = (bytes, stream) => {
        try { return decoder.decode(bytes, { stream }); } catch { throw new TypeError('Failed to decode input.'); }
      };
      super({
        transform(chunk, c) {
          let bytes;
          if (chunk instanceof ArrayBuffer) bytes = new Uint8Array(chunk);
          else if (ArrayBuffer.isView(chunk)) bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          else throw new TypeError(NOT_BYTES);
          const s = decode(bytes, true);
          if (s.length > 0) c.enqueue(s);
        },
        flush(c) {
          const s = decode(new Uint8Array(0), false);
          if (s.length > 0) c.enqueue(s);
        },
      });
      this[kEncoding] = decoder;
    }
    get encoding() { return this[kEncoding].encoding; }
    get fatal() { return this[kEncoding].fatal; }
    get ignoreBOM() { return this[kEncoding].ignoreBOM; }
    get [Symbol.toStringTag]() { return 'TextDecoderStream'; }
  }

  internal.defineGlobal('TextEncoderStream', TextEncoderStream);
  internal.defineGlobal('TextDecoderStream', TextDecoderStream);
});
