// WritableStream and TransformStream as the Streams standard defines them: a queue measured by the
// strategy, so `writer.desiredSize` counts the chunks (or bytes) still queued and `writer.ready`
// holds a writer back while it is not positive; a TransformStream's writes wait until its readable
// side has demand. workerd's observable differences are kept: its messages, a sink without start()
// is started synchronously, settling start() resolves `writer.ready`, and `desiredSize` stays a
// number while the stream is erroring.
(function (host, internal) {
  'use strict';
  // Internal slots. Symbols, not #private names: a #name gets a new key in every context whose
  // hash is the name's, so on the shared engine they collide in the shape tree and each
  // construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kState = Symbol('WritableStream.state'); // 'writable' | 'erroring' | 'errored' | 'closed'
  const kError = Symbol('WritableStream.error');
  const kWriter = Symbol('WritableStream.writer');
  const kCtl = Symbol('WritableStream.controller');
  const kWriteRequests = Symbol('WritableStream.writeRequests');
  const kInFlightWrite = Symbol('WritableStream.inFlightWrite');
  const kCloseRequest = Symbol('WritableStream.closeRequest');
  const kInFlightClose = Symbol('WritableStream.inFlightClose');
  const kPendingAbort = Symbol('WritableStream.pendingAbort');
  const kBackpressure = Symbol('WritableStream.backpressure');
  const kStream = Symbol('WritableStreamDefaultController.stream');
  const kQueue = Symbol('WritableStreamDefaultController.queue');
  const kQueueSize = Symbol('WritableStreamDefaultController.queueSize');
  const kHwm = Symbol('WritableStreamDefaultController.hwm');
  const kSize = Symbol('WritableStreamDefaultController.size');
  const kStarted = Symbol('WritableStreamDefaultController.started');
  const kSink = Symbol('WritableStreamDefaultController.sink');
  const kAbort = Symbol('WritableStreamDefaultController.abort');
  const kOwner = Symbol('WritableStreamDefaultWriter.stream');
  const kReady = Symbol('WritableStreamDefaultWriter.ready');
  const kClosed = Symbol('WritableStreamDefaultWriter.closed');
  const kTs = Symbol('TransformStreamDefaultController.stream');
  const kReadable = Symbol('TransformStream.readable');
  const kWritable = Symbol('TransformStream.writable');
  const kTsCtl = Symbol('TransformStream.controller');
  const kTsBackpressure = Symbol('TransformStream.backpressure');
  const kTsBackpressureChange = Symbol('TransformStream.backpressureChange');
  const kTransformer = Symbol('TransformStream.transformer');
  const kCancelled = Symbol('TransformStream.cancelled');

  const CLOSE = Symbol('close');
  const PAIR = Object.freeze({});
  const LOCKED = 'This WritableStream is currently locked to a writer.';
  const RELEASED = 'This WritableStream writer has been released.';
  const HAS_CLOSED = 'This WritableStream has been closed.';

  const { deferred, settle, settledDeferred } = internal; // (from streams.js)
  function call(obj, fn, args) {
    try { return Promise.resolve(typeof fn === 'function' ? fn.apply(obj, args) : undefined); } catch (e) { return Promise.reject(e); }
  }

  // ---------------------------------------------------------------- WritableStream

  class WritableStreamDefaultController {
    constructor(key) { if (key !== internal) throw new TypeError('Illegal constructor'); }
    error(e) { if (this[kStream][kState] === 'writable') startErroring(this[kStream], e); }
    get signal() { return this[kAbort].signal; }
    get [Symbol.toStringTag]() { return 'WritableStreamDefaultController'; }
  }

  class WritableStream {
    constructor(sink = undefined, strategy = undefined) {
      sink = sink === undefined || sink === null ? {} : sink;
      strategy = strategy === undefined || strategy === null ? {} : strategy;
      const size = strategy.size;
      if (size !== undefined && typeof size !== 'function') throw new TypeError('The size option of a queuing strategy must be a function.');
      const hwm = internal.toHighWaterMark(strategy.highWaterMark, 1);
      this[kState] = 'writable';
      this[kError] = undefined;
      this[kWriter] = null;
      this[kWriteRequests] = [];
      this[kInFlightWrite] = null;
      this[kCloseRequest] = null;
      this[kInFlightClose] = null;
      this[kPendingAbort] = null;
      const c = new WritableStreamDefaultController(internal);
      c[kStream] = this;
      c[kQueue] = [];
      c[kQueueSize] = 0;
      c[kHwm] = hwm;
      c[kSize] = size;
      c[kStarted] = false;
      c[kSink] = sink;
      c[kAbort] = new AbortController();
      this[kCtl] = c;
      this[kBackpressure] = hwm <= 0;
      const start = sink.start;
      if (start === undefined) { c[kStarted] = true; return; }
      // (a start() that throws errors the stream; workerd's constructor does not throw)
      let r;
      try { r = start.call(sink, c); } catch (e) { r = Promise.reject(e); }
      Promise.resolve(r).then(() => {
        c[kStarted] = true;
        const w = this[kWriter];
        if (w !== null && this[kState] === 'writable') settle(w[kReady], true);
        advanceQueue(c);
      }, (e) => { c[kStarted] = true; dealWithRejection(this, e); });
    }
    get locked() { return this[kWriter] !== null; }
    getWriter() { return new WritableStreamDefaultWriter(this); }
    abort(reason) {
      if (this[kWriter] !== null) return Promise.reject(new TypeError(LOCKED));
      return abort(this, reason);
    }
    close() {
      if (this[kWriter] !== null) return Promise.reject(new TypeError(LOCKED));
      return close(this);
    }
    get [Symbol.toStringTag]() { return 'WritableStream'; }
  }

  const closeQueuedOrInFlight = (s) => s[kCloseRequest] !== null || s[kInFlightClose] !== null;
  const desired = (c) => c[kHwm] - c[kQueueSize];

  function updateBackpressure(stream, bp) {
    const w = stream[kWriter];
    if (w !== null && bp !== stream[kBackpressure]) {
      if (bp) w[kReady] = deferred();
      else settle(w[kReady], true);
    }
    stream[kBackpressure] = bp;
  }
  function ensureReadyRejected(w, e) {
    if (w[kReady].settled) w[kReady] = settledDeferred(false, e);
    else settle(w[kReady], false, e);
  }
  function ensureClosedRejected(w, e) {
    if (w[kClosed].settled) w[kClosed] = settledDeferred(false, e);
    else settle(w[kClosed], false, e);
  }

  function write(stream, chunk) {
    const c = stream[kCtl];
    let size = 1;
    if (c[kSize] !== undefined) {
      try { size = internal.toHighWaterMark(c[kSize].call(undefined, chunk), 1); } catch (e) {
        if (stream[kState] === 'writable') startErroring(stream, e);
      }
    }
    const state = stream[kState];
    if (state === 'errored' || state === 'erroring') return Promise.reject(stream[kError]);
    if (state === 'closed' || stream[kInFlightClose] !== null) return Promise.reject(new TypeError(HAS_CLOSED));
    // (workerd's words for a write behind a queued close)
    if (stream[kCloseRequest] !== null) return Promise.reject(new TypeError('This ReadableStream is closed.'));
    const d = deferred();
    stream[kWriteRequests].push(d);
    c[kQueue].push({ chunk, size });
    c[kQueueSize] += size;
    updateBackpressure(stream, desired(c) <= 0);
    advanceQueue(c);
    return d.promise;
  }

  function close(stream) {
    const state = stream[kState];
    if (state === 'errored') return Promise.reject(stream[kError]);
    if (state === 'closed' || closeQueuedOrInFlight(stream)) return Promise.reject(new TypeError(HAS_CLOSED));
    const d = deferred();
    stream[kCloseRequest] = d;
    const w = stream[kWriter];
    if (w !== null && stream[kBackpressure] && state === 'writable') settle(w[kReady], true);
    const c = stream[kCtl];
    c[kQueue].push(CLOSE);
    advanceQueue(c);
    return d.promise;
  }

  function abort(stream, reason) {
    const state = stream[kState];
    if (state === 'closed' || state === 'errored') return Promise.resolve();
    stream[kCtl][kAbort].abort(reason);
    if (stream[kPendingAbort] !== null) return stream[kPendingAbort].d.promise;
    const wasAlreadyErroring = stream[kState] === 'erroring';
    if (stream[kState] === 'closed' || stream[kState] === 'errored') return Promise.resolve();
    const d = deferred();
    stream[kPendingAbort] = { d, reason: wasAlreadyErroring ? undefined : reason, wasAlreadyErroring };
    if (!wasAlreadyErroring) startErroring(stream, reason);
    return d.promise;
  }

  function startErroring(stream, reason) {
    stream[kState] = 'erroring';
    stream[kError] = reason;
    const w = stream[kWriter];
    if (w !== null) ensureReadyRejected(w, reason);
    if (stream[kInFlightWrite] === null && stream[kInFlightClose] === null && stream[kCtl][kStarted]) finishErroring(stream);
  }

  function finishErroring(stream) {
    stream[kState] = 'errored';
    const c = stream[kCtl];
    c[kQueue] = [];
    c[kQueueSize] = 0;
    const e = stream[kError];
    for (const w of stream[kWriteRequests].splice(0)) settle(w, false, e);
    const ab = stream[kPendingAbort];
    if (ab === null) { rejectCloseAndClosed(stream); return; }
    stream[kPendingAbort] = null;
    if (ab.wasAlreadyErroring) { settle(ab.d, false, e); rejectCloseAndClosed(stream); return; }
    call(c[kSink], c[kSink].abort, [ab.reason]).then(() => { settle(ab.d, true); rejectCloseAndClosed(stream); },
      (x) => { settle(ab.d, false, x); rejectCloseAndClosed(stream); });
  }
  function rejectCloseAndClosed(stream) {
    const e = stream[kError];
    if (stream[kCloseRequest] !== null) { settle(stream[kCloseRequest], false, e); stream[kCloseRequest] = null; }
    const w = stream[kWriter];
    if (w !== null) ensureClosedRejected(w, e);
  }
  function dealWithRejection(stream, e) {
    if (stream[kState] === 'writable') { startErroring(stream, e); return; }
    finishErroring(stream);
  }

  function advanceQueue(c) {
    const stream = c[kStream];
    if (!c[kStarted] || stream[kInFlightWrite] !== null || stream[kInFlightClose] !== null) return;
    if (stream[kState] === 'erroring') { finishErroring(stream); return; }
    if (c[kQueue].length === 0) return;
    const head = c[kQueue][0];
    if (head === CLOSE) processClose(c);
    else processWrite(c, head.chunk);
  }
  function processWrite(c, chunk) {
    const stream = c[kStream];
    stream[kInFlightWrite] = stream[kWriteRequests].shift();
    call(c[kSink], c[kSink].write, [chunk, c]).then(() => {
      settle(stream[kInFlightWrite], true);
      stream[kInFlightWrite] = null;
      const state = stream[kState];
      if (c[kQueue].length > 0) { const e = c[kQueue].shift(); c[kQueueSize] -= e.size; }
      if (!closeQueuedOrInFlight(stream) && state === 'writable') updateBackpressure(stream, desired(c) <= 0);
      advanceQueue(c);
    }, (e) => {
      settle(stream[kInFlightWrite], false, e);
      stream[kInFlightWrite] = null;
      dealWithRejection(stream, e);
    });
  }
  function processClose(c) {
    const stream = c[kStream];
    stream[kInFlightClose] = stream[kCloseRequest];
    stream[kCloseRequest] = null;
    c[kQueue].shift();
    call(c[kSink], c[kSink].close, []).then(() => {
      settle(stream[kInFlightClose], true);
      stream[kInFlightClose] = null;
      if (stream[kState] === 'erroring') {
        stream[kError] = undefined;
        if (stream[kPendingAbort] !== null) { settle(stream[kPendingAbort].d, true); stream[kPendingAbort] = null; }
      }
      stream[kState] = 'closed';
      const w = stream[kWriter];
      if (w !== null) settle(w[kClosed], true);
    }, (e) => {
      settle(stream[kInFlightClose], false, e);
      stream[kInFlightClose] = null;
      if (stream[kPendingAbort] !== null) { settle(stream[kPendingAbort].d, false, e); stream[kPendingAbort] = null; }
      dealWithRejection(stream, e);
    });
  }

  // fn(the writer's stream), or a rejection once the writer was released.
  const withStream = (writer, fn) => (writer[kOwner] === null ? Promise.reject(new TypeError(RELEASED)) : fn(writer[kOwner]));

  class WritableStreamDefaultWriter {
    constructor(stream) {
      if (!(stream instanceof WritableStream)) {
        throw new TypeError("Failed to construct 'WritableStreamDefaultWriter': constructor parameter 1 is not of type 'WritableStream'.");
      }
      if (stream[kWriter] !== null) throw new TypeError(LOCKED);
      this[kOwner] = stream;
      stream[kWriter] = this;
      const state = stream[kState];
      if (state === 'writable') {
        this[kReady] = !closeQueuedOrInFlight(stream) && stream[kBackpressure] ? deferred() : settledDeferred(true);
        this[kClosed] = deferred();
      } else if (state === 'erroring') {
        this[kReady] = settledDeferred(false, stream[kError]);
        this[kClosed] = deferred();
      } else if (state === 'closed') {
        this[kReady] = settledDeferred(true);
        this[kClosed] = settledDeferred(true);
      } else {
        this[kReady] = settledDeferred(false, stream[kError]);
        this[kClosed] = settledDeferred(false, stream[kError]);
      }
    }
    get closed() { return this[kClosed].promise; }
    get ready() { return this[kReady].promise; }
    get desiredSize() {
      const stream = this[kOwner];
      if (stream === null) throw new TypeError(RELEASED);
      const state = stream[kState];
      if (state === 'errored') return null;
      if (state === 'closed') return 0;
      return desired(stream[kCtl]);
    }
    write(chunk) { return withStream(this, (stream) => write(stream, chunk)); }
    close() { return withStream(this, close); }
    abort(reason) { return withStream(this, (stream) => abort(stream, reason)); }
    releaseLock() {
      const stream = this[kOwner];
      if (stream === null) return;
      const e = new TypeError(RELEASED);
      ensureReadyRejected(this, e);
      ensureClosedRejected(this, e);
      stream[kWriter] = null;
      this[kOwner] = null;
    }
    get [Symbol.toStringTag]() { return 'WritableStreamDefaultWriter'; }
  }

  internal.wsState = (ws) => ws[kState];
  internal.wsStoredError = (ws) => ws[kError];
  internal.wsErrorIfNeeded = (ws, e) => { if (ws[kState] === 'writable') startErroring(ws, e); };

  // ---------------------------------------------------------------- TransformStream

  class TransformStreamDefaultController {
    constructor(key) { if (key !== internal) throw new TypeError('Illegal constructor'); }
    get desiredSize() { return internal.rsDesired(this[kTs][kReadable]); }
    enqueue(chunk) { tsEnqueue(this[kTs], chunk); }
    error(e) { tsError(this[kTs], e); }
    terminate() {
      const ts = this[kTs];
      try { internal.rsClose(ts[kReadable]); } catch { }
      errorWritableAndUnblockWrite(ts, new TypeError('The transform stream has been terminated'));
    }
    get [Symbol.toStringTag]() { return 'TransformStreamDefaultController'; }
  }

  function setTsBackpressure(ts, bp) {
    if (ts[kTsBackpressureChange] !== null) settle(ts[kTsBackpressureChange], true);
    ts[kTsBackpressureChange] = deferred();
    ts[kTsBackpressure] = bp;
  }
  function errorWritableAndUnblockWrite(ts, e) {
    internal.wsErrorIfNeeded(ts[kWritable], e);
    if (ts[kTsBackpressure]) setTsBackpressure(ts, false);
  }
  function tsError(ts, e) {
    internal.rsError(ts[kReadable], e);
    errorWritableAndUnblockWrite(ts, e);
  }
  function tsEnqueue(ts, chunk) {
    const readable = ts[kReadable];
    try { internal.rsEnqueue(readable, chunk); } catch (e) { errorWritableAndUnblockWrite(ts, e); throw e; }
    const bp = !(internal.rsDesired(readable) > 0);
    if (bp !== ts[kTsBackpressure]) setTsBackpressure(ts, true);
  }
  function performTransform(ts, chunk) {
    const t = ts[kTransformer];
    const ctl = ts[kTsCtl];
    const p = typeof t.transform === 'function' ? call(t, t.transform, [chunk, ctl]) : call(null, () => tsEnqueue(ts, chunk), []);
    return p.catch((e) => { tsError(ts, e); throw e; });
  }
  function cancelTransformer(ts, reason) {
    if (ts[kCancelled]) return Promise.resolve();
    ts[kCancelled] = true;
    const t = ts[kTransformer];
    return call(t, t.cancel, [reason]);
  }

  class TransformStream {
    constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
      if (transformer === PAIR) return; // a runtime transform (identity-streams.js) adopts its own pair
      transformer = transformer === undefined || transformer === null ? {} : transformer;
      writableStrategy = writableStrategy === undefined || writableStrategy === null ? {} : writableStrategy;
      readableStrategy = readableStrategy === undefined || readableStrategy === null ? {} : readableStrategy;
      if (transformer.readableType !== undefined) throw new TypeError('transformer.readableType must be undefined.');
      if (transformer.writableType !== undefined) throw new TypeError('transformer.writableType must be undefined.');
      const ts = this;
      const started = deferred();
      this[kTransformer] = transformer;
      this[kTsBackpressure] = undefined;
      this[kTsBackpressureChange] = null;
      this[kCancelled] = false;
      const ctl = new TransformStreamDefaultController(internal);
      ctl[kTs] = this;
      this[kTsCtl] = ctl;
      this[kWritable] = new WritableStream({
        start() { return started.promise; },
        write(chunk) {
          if (!ts[kTsBackpressure]) return performTransform(ts, chunk);
          return ts[kTsBackpressureChange].promise.then(() => {
            const w = ts[kWritable];
            if (w[kState] === 'erroring') throw w[kError];
            return performTransform(ts, chunk);
          });
        },
        abort(reason) {
          return cancelTransformer(ts, reason).then(() => { internal.rsError(ts[kReadable], reason); },
            (e) => { internal.rsError(ts[kReadable], e); throw e; });
        },
        close() {
          const t = ts[kTransformer];
          return call(t, t.flush, [ctl]).then(() => {
            const readable = ts[kReadable];
            try { internal.rsClose(readable); } catch { }
          }, (e) => { tsError(ts, e); throw e; });
        },
      }, { highWaterMark: internal.toHighWaterMark(writableStrategy.highWaterMark, 1), size: writableStrategy.size });
      this[kReadable] = new ReadableStream({
        start() { return started.promise; },
        pull() { setTsBackpressure(ts, false); return ts[kTsBackpressureChange].promise; },
        cancel(reason) {
          return cancelTransformer(ts, reason).then(() => { errorWritableAndUnblockWrite(ts, reason); },
            (e) => { errorWritableAndUnblockWrite(ts, e); throw e; });
        },
      }, { highWaterMark: internal.toHighWaterMark(readableStrategy.highWaterMark, 0), size: readableStrategy.size });
      setTsBackpressure(this, true);
      const r = typeof transformer.start === 'function' ? transformer.start.call(transformer, ctl) : undefined;
      started.resolve(r);
    }
    get readable() { return this[kReadable]; }
    get writable() { return this[kWritable]; }
    get [Symbol.toStringTag]() { return 'TransformStream'; }
    static {
      // The runtime's own transforms (identity-streams.js) bring their own pair of streams:
      // `super(internal.TRANSFORM_PAIR)`, then `internal.adoptTransform(this, readable, writable)`.
      internal.adoptTransform = (ts, readable, writable) => { ts[kReadable] = readable; ts[kWritable] = writable; };
      internal.TRANSFORM_PAIR = PAIR;
    }
  }

  internal.defineGlobal('WritableStream', WritableStream);
  internal.defineGlobal('WritableStreamDefaultWriter', WritableStreamDefaultWriter);
  internal.defineGlobal('WritableStreamDefaultController', WritableStreamDefaultController);
  internal.defineGlobal('TransformStream', TransformStream);
  internal.defineGlobal('TransformStreamDefaultController', TransformStreamDefaultController);
});
