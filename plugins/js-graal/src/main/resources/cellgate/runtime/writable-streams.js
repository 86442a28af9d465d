// WritableStream (writes run one at a time, in order) and TransformStream, whose writes wait
// until the readable side has demand: a writer cannot run ahead of a slow reader.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kWritableStreamDefaultControllerWs = Symbol('WritableStreamDefaultController.ws');
  const kSink = Symbol('WritableStream.sink');
  const kState = Symbol('WritableStream.state');
  const kError = Symbol('WritableStream.error');
  const kWriter = Symbol('WritableStream.writer');
  const kChain = Symbol('WritableStream.chain');
  const kController = Symbol('WritableStream.controller');
  const kAbort = Symbol('WritableStream.abort');
  const kEnqueue = Symbol('WritableStream.enqueue');
  const kDoWrite = Symbol('WritableStream.doWrite');
  const kDoClose = Symbol('WritableStream.doClose');
  const kDoAbort = Symbol('WritableStream.doAbort');
  const kWritableStreamDefaultWriterWs = Symbol('WritableStreamDefaultWriter.ws');
  const kStream = Symbol('WritableStreamDefaultWriter.stream');
  const kRc = Symbol('TransformStreamDefaultController.rc');
  const kTs = Symbol('TransformStreamDefaultController.ts');
  const kReadable = Symbol('TransformStream.readable');
  const kWritable = Symbol('TransformStream.writable');

  class WritableStreamDefaultController {
    [kWritableStreamDefaultControllerWs];
    constructor(key, ws) { if (key !== internal) throw new TypeError('Illegal constructor'); this[kWritableStreamDefaultControllerWs] = ws; }
    error(e) { internal.wsError(this[kWritableStreamDefaultControllerWs], e); }
    get signal() { return internal.wsSignal(this[kWritableStreamDefaultControllerWs]); }
  }

  class WritableStream {
    [kSink];
    [kState] = 'writable';
    [kError];
    [kWriter] = null;
    [kChain];
    [kController];
    [kAbort] = new AbortController();
    constructor(sink = {}, strategy = {}) {
      this[kSink] = sink === null ? {} : sink;
      this[kController] = new WritableStreamDefaultController(internal, this);
      let started;
      try {
        started = typeof this[kSink].start === 'function' ? this[kSink].start.call(this[kSink], this[kController]) : undefined;
      } catch (e) { this[kState] = 'errored'; this[kError] = e; throw e; }
      this[kChain] = Promise.resolve(started);
    }
    get locked() { return this[kWriter] !== null; }
    getWriter() { return new WritableStreamDefaultWriter(this); }
    abort(reason) {
      if (this.locked) return Promise.reject(new TypeError('This WritableStream is currently locked to a writer.'));
      return this[kDoAbort](reason);
    }
    close() {
      if (this.locked) return Promise.reject(new TypeError('This WritableStream is currently locked to a writer.'));
      return this[kDoClose]();
    }
    [kEnqueue](op) {
      const p = this[kChain].then(() => {
        if (this[kState] === 'errored') throw this[kError];
        return op();
      });
      this[kChain] = p.catch((e) => { if (this[kState] !== 'errored') { this[kState] = 'errored'; this[kError] = e; } });
      return p;
    }
    [kDoWrite](chunk) {
      if (this[kState] !== 'writable') {
        return Promise.reject(this[kState] === 'errored' ? this[kError] : new TypeError('This WritableStream has been closed.'));
      }
      return this[kEnqueue](() => (typeof this[kSink].write === 'function' ? this[kSink].write.call(this[kSink], chunk, this[kController]) : undefined))
        .then(() => undefined);
    }
    [kDoClose]() {
      if (this[kState] !== 'writable') {
        return Promise.reject(this[kState] === 'errored' ? this[kError] : new TypeError('This WritableStream has been closed.'));
      }
      this[kState] = 'closing';
      return this[kEnqueue](() => (typeof this[kSink].close === 'function' ? this[kSink].close.call(this[kSink]) : undefined))
        .then(() => { this[kState] = 'closed'; });
    }
    [kDoAbort](reason) {
      if (this[kState] === 'closed' || this[kState] === 'errored') return Promise.resolve();
      this[kState] = 'errored';
      this[kError] = reason;
      this[kAbort].abort(reason);
      try {
        return Promise.resolve(typeof this[kSink].abort === 'function' ? this[kSink].abort.call(this[kSink], reason) : undefined).then(() => undefined);
      } catch (e) { return Promise.reject(e); }
    }
    static {
      internal.wsError = (ws, e) => { if (ws[kState] === 'writable' || ws[kState] === 'closing') { ws[kState] = 'errored'; ws[kError] = e; } };
      internal.wsSignal = (ws) => ws[kAbort].signal;
      internal.wsLock = (ws, w) => { if (ws[kWriter]) throw new TypeError('This WritableStream is currently locked to a writer.'); ws[kWriter] = w; };
      internal.wsUnlock = (ws) => { ws[kWriter] = null; };
      internal.wsWrite = (ws, c) => ws[kDoWrite](c);
      internal.wsClose = (ws) => ws[kDoClose]();
      internal.wsAbort = (ws, r) => ws[kDoAbort](r);
      internal.wsState = (ws) => ws[kState];
      internal.wsDone = (ws) => ws[kChain];
    }
  }

  class WritableStreamDefaultWriter {
    [kWritableStreamDefaultWriterWs];
    constructor(ws) { internal.wsLock(ws, this); this[kWritableStreamDefaultWriterWs] = ws; }
    [kStream]() { if (!this[kWritableStreamDefaultWriterWs]) throw new TypeError('This writer has been released.'); return this[kWritableStreamDefaultWriterWs]; }
    get ready() { return this[kWritableStreamDefaultWriterWs] ? internal.wsDone(this[kWritableStreamDefaultWriterWs]).then(() => undefined) : Promise.reject(new TypeError('This writer has been released.')); }
    get closed() { const ws = this[kStream](); return internal.wsDone(ws).then(() => { if (internal.wsState(ws) === 'errored') throw new TypeError('The stream errored.'); }); }
    get desiredSize() { return internal.wsState(this[kStream]()) === 'writable' ? 1 : 0; }
    write(chunk) { try { return internal.wsWrite(this[kStream](), chunk); } catch (e) { return Promise.reject(e); } }
    close() { try { return internal.wsClose(this[kStream]()); } catch (e) { return Promise.reject(e); } }
    abort(reason) { try { return internal.wsAbort(this[kStream](), reason); } catch (e) { return Promise.reject(e); } }
    releaseLock() { if (this[kWritableStreamDefaultWriterWs]) { internal.wsUnlock(this[kWritableStreamDefaultWriterWs]); this[kWritableStreamDefaultWriterWs] = null; } }
  }

  class TransformStreamDefaultController {
    [kRc];
    [kTs];
    constructor(key, rc, ts) { if (key !== internal) throw new TypeError('Illegal constructor'); this[kRc] = rc; this[kTs] = ts; }
    get desiredSize() { return this[kRc].desiredSize; }
    enqueue(chunk) { this[kRc].enqueue(chunk); }
    error(e) { this[kRc].error(e); internal.wsError(this[kTs].writable, e); }
    terminate() { try { this[kRc].close(); } catch { } internal.wsError(this[kTs].writable, new TypeError('The TransformStream was terminated.')); }
  }

  class TransformStream {
    [kReadable];
    [kWritable];
    constructor(transformer = {}, writableStrategy = {}, readableStrategy = {}) {
      transformer = transformer === null ? {} : transformer;
      let rc;
      this[kReadable] = new ReadableStream({
        start(c) { rc = c; },
        cancel(reason) { if (typeof transformer.cancel === 'function') return transformer.cancel.call(transformer, reason); return undefined; },
      }, { highWaterMark: readableStrategy.highWaterMark !== undefined ? readableStrategy.highWaterMark : 0 });
      const readable = this[kReadable];
      const controller = new TransformStreamDefaultController(internal, rc, this);
      const started = typeof transformer.start === 'function' ? transformer.start.call(transformer, controller) : undefined;
      this[kWritable] = new WritableStream({
        start() { return started; },
        async write(chunk) {
          await internal.rsWaitForDemand(readable);
          if (typeof transformer.transform === 'function') await transformer.transform.call(transformer, chunk, controller);
          else controller.enqueue(chunk);
        },
        async close() {
          if (typeof transformer.flush === 'function') await transformer.flush.call(transformer, controller);
          try { rc.close(); } catch { }
        },
        abort(reason) { rc.error(reason); },
      });
    }
    get readable() { return this[kReadable]; }
    get writable() { return this[kWritable]; }
  }

  // Cloudflare's byte-only identity transform.
  class IdentityTransformStream extends TransformStream {
    constructor() {
      super({
        transform(chunk, c) {
          if (!ArrayBuffer.isView(chunk) && !(chunk instanceof ArrayBuffer)) {
            throw new TypeError('This TransformStream is being used as a byte stream, but received an object of non-ArrayBuffer/ArrayBufferView type on its writable side.');
          }
          c.enqueue(chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk);
        },
      });
    }
  }

  internal.defineGlobal('WritableStream', WritableStream);
  internal.defineGlobal('WritableStreamDefaultWriter', WritableStreamDefaultWriter);
  internal.defineGlobal('WritableStreamDefaultController', WritableStreamDefaultController);
  internal.defineGlobal('TransformStream', TransformStream);
  internal.defineGlobal('TransformStreamDefaultController', TransformStreamDefaultController);
  internal.defineGlobal('IdentityTransformStream', IdentityTransformStream);
});
