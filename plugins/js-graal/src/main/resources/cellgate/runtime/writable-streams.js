// WritableStream (writes run one at a time, in order) and TransformStream, whose writes wait
// until the readable side has demand: a writer cannot run ahead of a slow reader.
(function (host, internal) {
  'use strict';

  class WritableStreamDefaultController {
    #ws;
    constructor(key, ws) { if (key !== internal) throw new TypeError('Illegal constructor'); this.#ws = ws; }
    error(e) { internal.wsError(this.#ws, e); }
    get signal() { return internal.wsSignal(this.#ws); }
  }

  class WritableStream {
    #sink;
    #state = 'writable';
    #error;
    #writer = null;
    #chain;
    #controller;
    #abort = new AbortController();
    constructor(sink = {}, strategy = {}) {
      this.#sink = sink === null ? {} : sink;
      this.#controller = new WritableStreamDefaultController(internal, this);
      let started;
      try {
        started = typeof this.#sink.start === 'function' ? this.#sink.start.call(this.#sink, this.#controller) : undefined;
      } catch (e) { this.#state = 'errored'; this.#error = e; throw e; }
      this.#chain = Promise.resolve(started);
    }
    get locked() { return this.#writer !== null; }
    getWriter() { return new WritableStreamDefaultWriter(this); }
    abort(reason) {
      if (this.locked) return Promise.reject(new TypeError('This WritableStream is currently locked to a writer.'));
      return this.#doAbort(reason);
    }
    close() {
      if (this.locked) return Promise.reject(new TypeError('This WritableStream is currently locked to a writer.'));
      return this.#doClose();
    }
    #enqueue(op) {
      const p = this.#chain.then(() => {
        if (this.#state === 'errored') throw this.#error;
        return op();
      });
      this.#chain = p.catch((e) => { if (this.#state !== 'errored') { this.#state = 'errored'; this.#error = e; } });
      return p;
    }
    #doWrite(chunk) {
      if (this.#state !== 'writable') {
        return Promise.reject(this.#state === 'errored' ? this.#error : new TypeError('This WritableStream has been closed.'));
      }
      return this.#enqueue(() => (typeof this.#sink.write === 'function' ? this.#sink.write.call(this.#sink, chunk, this.#controller) : undefined))
        .then(() => undefined);
    }
    #doClose() {
      if (this.#state !== 'writable') {
        return Promise.reject(this.#state === 'errored' ? this.#error : new TypeError('This WritableStream has been closed.'));
      }
      this.#state = 'closing';
      return this.#enqueue(() => (typeof this.#sink.close === 'function' ? this.#sink.close.call(this.#sink) : undefined))
        .then(() => { this.#state = 'closed'; });
    }
    #doAbort(reason) {
      if (this.#state === 'closed' || this.#state === 'errored') return Promise.resolve();
      this.#state = 'errored';
      this.#error = reason;
      this.#abort.abort(reason);
      try {
        return Promise.resolve(typeof this.#sink.abort === 'function' ? this.#sink.abort.call(this.#sink, reason) : undefined).then(() => undefined);
      } catch (e) { return Promise.reject(e); }
    }
    static {
      internal.wsError = (ws, e) => { if (ws.#state === 'writable' || ws.#state === 'closing') { ws.#state = 'errored'; ws.#error = e; } };
      internal.wsSignal = (ws) => ws.#abort.signal;
      internal.wsLock = (ws, w) => { if (ws.#writer) throw new TypeError('This WritableStream is currently locked to a writer.'); ws.#writer = w; };
      internal.wsUnlock = (ws) => { ws.#writer = null; };
      internal.wsWrite = (ws, c) => ws.#doWrite(c);
      internal.wsClose = (ws) => ws.#doClose();
      internal.wsAbort = (ws, r) => ws.#doAbort(r);
      internal.wsState = (ws) => ws.#state;
      internal.wsDone = (ws) => ws.#chain;
    }
  }

  class WritableStreamDefaultWriter {
    #ws;
    constructor(ws) { internal.wsLock(ws, this); this.#ws = ws; }
    #stream() { if (!this.#ws) throw new TypeError('This writer has been released.'); return this.#ws; }
    get ready() { return this.#ws ? internal.wsDone(this.#ws).then(() => undefined) : Promise.reject(new TypeError('This writer has been released.')); }
    get closed() { const ws = this.#stream(); return internal.wsDone(ws).then(() => { if (internal.wsState(ws) === 'errored') throw new TypeError('The stream errored.'); }); }
    get desiredSize() { return internal.wsState(this.#stream()) === 'writable' ? 1 : 0; }
    write(chunk) { try { return internal.wsWrite(this.#stream(), chunk); } catch (e) { return Promise.reject(e); } }
    close() { try { return internal.wsClose(this.#stream()); } catch (e) { return Promise.reject(e); } }
    abort(reason) { try { return internal.wsAbort(this.#stream(), reason); } catch (e) { return Promise.reject(e); } }
    releaseLock() { if (this.#ws) { internal.wsUnlock(this.#ws); this.#ws = null; } }
  }

  class TransformStreamDefaultController {
    #rc;
    #ts;
    constructor(key, rc, ts) { if (key !== internal) throw new TypeError('Illegal constructor'); this.#rc = rc; this.#ts = ts; }
    get desiredSize() { return this.#rc.desiredSize; }
    enqueue(chunk) { this.#rc.enqueue(chunk); }
    error(e) { this.#rc.error(e); internal.wsError(this.#ts.writable, e); }
    terminate() { try { this.#rc.close(); } catch { } internal.wsError(this.#ts.writable, new TypeError('The TransformStream was terminated.')); }
  }

  class TransformStream {
    #readable;
    #writable;
    constructor(transformer = {}, writableStrategy = {}, readableStrategy = {}) {
      transformer = transformer === null ? {} : transformer;
      let rc;
      this.#readable = new ReadableStream({
        start(c) { rc = c; },
        cancel(reason) { if (typeof transformer.cancel === 'function') return transformer.cancel.call(transformer, reason); return undefined; },
      }, { highWaterMark: readableStrategy.highWaterMark !== undefined ? readableStrategy.highWaterMark : 0 });
      const readable = this.#readable;
      const controller = new TransformStreamDefaultController(internal, rc, this);
      const started = typeof transformer.start === 'function' ? transformer.start.call(transformer, controller) : undefined;
      this.#writable = new WritableStream({
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
    get readable() { return this.#readable; }
    get writable() { return this.#writable; }
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
