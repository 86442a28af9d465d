// workerd's byte transforms: IdentityTransformStream, FixedLengthStream, and the byte pipe they
// (and compression.js) are built on. Unlike a TransformStream, a pipe buffers nothing: a write is
// in flight until a reader has taken its bytes, and the readable side is a byte stream (BYOB reads
// work). Without a highWaterMark the writer never sees backpressure (desiredSize stays 1, as in
// workerd); with one, desiredSize counts the bytes not yet read.
(function (host, internal) {
  'use strict';
  const ReadableStream = internal.builtin('ReadableStream');
  const WritableStream = internal.builtin('WritableStream');
  const TransformStream = internal.builtin('TransformStream');
  const NOT_BYTES = 'This TransformStream is being used as a byte stream, but received an object of non-ArrayBuffer/ArrayBufferView type on its writable side.';

  function acceptBytes(chunk) {
    if (typeof chunk === 'string') return internal.encoder.encode(chunk);
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk.slice(0));
    if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
    throw new TypeError(NOT_BYTES);
  }
  const byteLength = (c) => (typeof c === 'string' ? internal.encoder.encode(c).byteLength
    : c instanceof ArrayBuffer || ArrayBuffer.isView(c) ? c.byteLength : 0);

  // opts: accept(chunk) -> Uint8Array; transform(bytes) and flush() -> what drain() takes; check(bytes) ->
  // Error | null before a delivery; end() -> Error | null at close; abort() when aborted; highWaterMark.
  internal.newBytePipe = function (opts) {
    const waiting = []; // { bytes, resolve, reject }: written, not yet taken by a reader
    let demand = null;  // resolves the readable's pending pull()
    let rc = null;
    const accept = opts.accept || acceptBytes;

    const readable = new ReadableStream({
      type: 'bytes',
      start(c) { rc = c; },
      pull() { return new Promise((resolve) => { demand = resolve; pump(); }); },
      cancel(reason) {
        for (const w of waiting.splice(0)) w.reject(reason);
        internal.wsErrorIfNeeded(writable, reason);
      },
    }, { highWaterMark: 0 });

    function pump() {
      while (demand !== null && waiting.length > 0) {
        const w = waiting.shift();
        const d = demand;
        demand = null;
        const err = opts.check ? opts.check(w.bytes) : null;
        if (err) internal.rsError(readable, err);
        else rc.enqueue(w.bytes);
        w.resolve();
        d();
      }
    }
    function deliver(bytes) {
      if (bytes === null || bytes === undefined || bytes.byteLength === 0) return undefined;
      return new Promise((resolve, reject) => { waiting.push({ bytes, resolve, reject }); pump(); });
    }
    function fail(e) { internal.rsError(readable, e); throw e; }
    // What a transform or flush made: nothing, bytes, or a source of pieces ({ next() -> bytes | null })
    // taken one at a time, each once a reader has the one before.
    function drain(made) {
      if (made === null || made === undefined || ArrayBuffer.isView(made)) return deliver(made);
      const step = () => {
        let piece;
        try { piece = made.next(); } catch (e) { return Promise.reject(e).catch(fail); }
        if (piece === null) return undefined;
        return Promise.resolve(deliver(piece)).then(step);
      };
      return step();
    }
    function closeReadable() {
      const err = opts.end ? opts.end() : null;
      if (err) { internal.rsError(readable, err); return; }
      try { rc.close(); } catch { }
    }

    const hwm = opts.highWaterMark;
    const writable = new WritableStream({
      write(chunk) {
        const bytes = accept(chunk); // (a chunk of the wrong type fails the write alone, as in workerd)
        let out;
        try { out = opts.transform ? opts.transform(bytes) : bytes; } catch (e) { return fail(e); }
        return drain(out);
      },
      close() {
        let out;
        try { out = opts.flush ? opts.flush() : null; } catch (e) { return fail(e); }
        return Promise.resolve(drain(out)).then(closeReadable);
      },
      abort(reason) {
        for (const w of waiting.splice(0)) w.reject(reason);
        internal.rsError(readable, reason);
        if (opts.abort) opts.abort();
      },
    }, hwm === undefined ? { highWaterMark: 1, size: () => 0 } : { highWaterMark: hwm, size: byteLength });
    return { readable, writable };
  };

  class IdentityTransformStream extends TransformStream {
    constructor(options = undefined) {
      super(internal.TRANSFORM_PAIR);
      if (options === internal.TRANSFORM_PAIR) return; // a subclass builds its own pair
      const hwm = options === undefined || options === null ? undefined : internal.toHighWaterMark(options.highWaterMark, undefined);
      const { readable, writable } = internal.newBytePipe({ highWaterMark: hwm });
      internal.adoptTransform(this, readable, writable);
    }
    get [Symbol.toStringTag]() { return 'IdentityTransformStream'; }
  }

  // Passes exactly `expectedLength` bytes; a body built on its readable has a known length.
  class FixedLengthStream extends IdentityTransformStream {
    constructor(expectedLength, options = undefined) {
      super(internal.TRANSFORM_PAIR);
      // (a bigint, a number or a string of one, as workerd converts it)
      let n = NaN;
      if (typeof expectedLength === 'bigint' || typeof expectedLength === 'number') n = Number(expectedLength);
      else if (typeof expectedLength === 'string') { try { n = Number(BigInt(expectedLength)); } catch { n = NaN; } }
      if (Number.isNaN(n) && typeof expectedLength !== 'number') {
        throw new TypeError("Failed to construct 'FixedLengthStream': constructor parameter 1 is not of type 'bigint'.");
      }
      if (!Number.isInteger(n)) throw new TypeError('The value cannot be converted because it is not an integer.');
      if (n < 0) throw new TypeError('The value cannot be converted because it is negative and this API expects a positive bigint.');
      const hwm = options === undefined || options === null ? undefined : internal.toHighWaterMark(options.highWaterMark, undefined);
      let seen = 0;
      const { readable, writable } = internal.newBytePipe({
        highWaterMark: hwm,
        check(bytes) {
          seen += bytes.byteLength;
          return seen > n ? new TypeError('Attempt to write too many bytes through a FixedLengthStream.') : null;
        },
        end() { return seen < n ? new TypeError('FixedLengthStream did not see all expected bytes before close().') : null; },
      });
      readable[internal.kStreamLength] = n;
      internal.adoptTransform(this, readable, writable);
    }
    get [Symbol.toStringTag]() { return 'FixedLengthStream'; }
  }

  internal.defineGlobal('IdentityTransformStream', IdentityTransformStream);
  internal.defineGlobal('FixedLengthStream', FixedLengthStream);
});
