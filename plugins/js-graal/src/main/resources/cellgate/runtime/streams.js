// ReadableStream as the Streams standard defines it (default and byte controllers, default and
// BYOB readers, tee, pipeTo/pipeThrough, async iteration, from), with workerd's observable
// differences kept (its messages; a read served from the queue does not call pull(); a source
// without start() is started synchronously; a bad chunk size errors the stream without throwing).
// Bodies from the host are byte streams whose pull asks Java for exactly one chunk, so a slow
// reader holds back the producer; bodies to the host are read one chunk per unit of demand.
(function (host, internal) {
  'use strict';
  // Internal slots. Symbols, not #private names: a #name gets a new key in every context whose
  // hash is the name's, so on the shared engine they collide in the shape tree and each
  // construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kState = Symbol('ReadableStream.state'); // 'readable' | 'closed' | 'errored'
  const kError = Symbol('ReadableStream.error');
  const kReader = Symbol('ReadableStream.reader');
  const kDisturbed = Symbol('ReadableStream.disturbed');
  const kCtl = Symbol('ReadableStream.controller');
  // controllers (both kinds)
  const kStream = Symbol('controller.stream');
  const kQueue = Symbol('controller.queue');
  const kQueueSize = Symbol('controller.queueSize');
  const kHwm = Symbol('controller.hwm');
  const kSize = Symbol('controller.size');
  const kStarted = Symbol('controller.started');
  const kPulling = Symbol('controller.pulling');
  const kPullAgain = Symbol('controller.pullAgain');
  const kCloseRequested = Symbol('controller.closeRequested');
  const kSource = Symbol('controller.source');
  const kBytes = Symbol('controller.bytes');
  const kPullIntos = Symbol('controller.pullIntos');
  const kByobRequest = Symbol('controller.byobRequest');
  const kAutoAllocate = Symbol('controller.autoAllocate');
  // readers
  const kOwner = Symbol('reader.stream');
  const kRequests = Symbol('reader.requests');
  const kClosed = Symbol('reader.closed');
  const kByob = Symbol('reader.byob');
  // BYOB request
  const kReqCtl = Symbol('ReadableStreamBYOBRequest.controller');
  const kReqView = Symbol('ReadableStreamBYOBRequest.view');

  const LOCKED = 'This ReadableStream is currently locked to a reader.';
  const RELEASED = 'This ReadableStream reader has been released.';
  const CLOSED_MSG = 'This ReadableStream is closed.';
  const ILLEGAL = 'Illegal constructor';
  const noop = () => { };

  // A promise with its resolvers and whether it settled (writable-streams.js uses these too). A
  // rejection is marked handled: a stream's closed/ready promises need not be awaited.
  function deferred() {
    let resolve, reject;
    const promise = new Promise((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject, settled: false };
  }
  function settle(d, ok, v) {
    if (d === null || d.settled) return;
    d.settled = true;
    if (ok) d.resolve(v); else { d.promise.catch(noop); d.reject(v); }
  }
  function settledDeferred(ok, v) { const d = deferred(); settle(d, ok, v); return d; }
  const rejectedDeferred = (e) => settledDeferred(false, e);
  const resolvedDeferred = () => settledDeferred(true);
  internal.deferred = deferred;
  internal.settle = settle;
  internal.settledDeferred = settledDeferred;

  // workerd converts a highWaterMark to an unsigned integer (WebIDL `unsigned long long`).
  internal.toHighWaterMark = function (v, fallback) {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new TypeError('The value cannot be converted because it is not an integer.');
    if (n < 0) throw new TypeError('The value cannot be converted because it is negative and this API expects a positive bigint.');
    return Math.trunc(n);
  };
  // ArrayBuffer transfer as the standard asks (the caller's view is detached); a buffer that cannot
  // be detached (one backed by the host) is copied instead.
  function transfer(buffer) {
    try { return buffer.transfer(); } catch { return buffer.slice(0); }
  }
  const isView = ArrayBuffer.isView;

  // ---------------------------------------------------------------- controllers

  class ReadableStreamDefaultController {
    constructor(key) { if (key !== internal) throw new TypeError(ILLEGAL); }
    get desiredSize() { return desiredSize(this); }
    enqueue(chunk) { defaultEnqueue(this, chunk); }
    close() { controllerClose(this); }
    error(e) { controllerError(this, e); }
    get [Symbol.toStringTag]() { return 'ReadableStreamDefaultController'; }
  }

  class ReadableByteStreamController {
    constructor(key) { if (key !== internal) throw new TypeError(ILLEGAL); }
    get desiredSize() { return desiredSize(this); }
    get byobRequest() {
      if (this[kByobRequest] === null && this[kPullIntos].length > 0) {
        const d = this[kPullIntos][0];
        const view = new Uint8Array(d.buffer, d.byteOffset + d.bytesFilled, d.byteLength - d.bytesFilled);
        const req = new ReadableStreamBYOBRequest(internal);
        req[kReqCtl] = this;
        req[kReqView] = view;
        this[kByobRequest] = req;
      }
      return this[kByobRequest];
    }
    enqueue(chunk) {
      if (!isView(chunk)) {
        throw new TypeError("Failed to execute 'enqueue' on 'ReadableByteStreamController': parameter 1 is not of type 'BufferSource'.");
      }
      if (chunk.byteLength === 0) throw new TypeError('Cannot enqueue a zero-length ArrayBuffer.');
      if (!canCloseOrEnqueue(this)) throw new TypeError('Unable to enqueue');
      byteEnqueue(this, chunk);
    }
    close() { controllerClose(this); }
    error(e) { controllerError(this, e); }
    get [Symbol.toStringTag]() { return 'ReadableByteStreamController'; }
  }

  class ReadableStreamBYOBRequest {
    constructor(key) { if (key !== internal) throw new TypeError(ILLEGAL); this[kReqCtl] = null; this[kReqView] = null; }
    get view() { return this[kReqView]; }
    respond(bytesWritten) {
      const c = this[kReqCtl];
      if (c === null) throw new TypeError('This BYOB request has been invalidated.');
      byteRespond(c, Number(bytesWritten));
    }
    respondWithNewView(view) {
      const c = this[kReqCtl];
      if (c === null) throw new TypeError('This BYOB request has been invalidated.');
      if (!isView(view)) throw new TypeError("Failed to execute 'respondWithNewView' on 'ReadableStreamBYOBRequest': parameter 1 is not of type 'ArrayBufferView'.");
      const d = c[kPullIntos][0];
      if (d.byteOffset + d.bytesFilled !== view.byteOffset) throw new RangeError('The view has an invalid byte offset.');
      if (d.bufferByteLength !== view.buffer.byteLength) throw new RangeError('The view has an invalid buffer length.');
      d.buffer = view.buffer;
      byteRespond(c, view.byteLength);
    }
    get [Symbol.toStringTag]() { return 'ReadableStreamBYOBRequest'; }
  }

  function setupController(stream, c, source, hwm, size, bytes) {
    c[kStream] = stream;
    c[kQueue] = [];
    c[kQueueSize] = 0;
    c[kHwm] = hwm;
    c[kSize] = size;
    c[kStarted] = false;
    c[kPulling] = false;
    c[kPullAgain] = false;
    c[kCloseRequested] = false;
    c[kSource] = source;
    c[kBytes] = bytes;
    c[kPullIntos] = bytes ? [] : null;
    c[kByobRequest] = null;
    stream[kCtl] = c;
    const start = source.start;
    if (start === undefined) {
      // workerd starts a source without start() at once: pull() may run inside the constructor.
      c[kStarted] = true;
      pullIfNeeded(c);
      return;
    }
    // (a start() that throws errors the stream; workerd's constructor does not throw)
    let r;
    try { r = start.call(source, c); } catch (e) { r = Promise.reject(e); }
    Promise.resolve(r).then(() => { c[kStarted] = true; pullIfNeeded(c); }, (e) => controllerError(c, e));
  }

  function desiredSize(c) {
    const s = c[kStream][kState];
    if (s === 'errored') return null;
    if (s === 'closed') return 0;
    return c[kHwm] - c[kQueueSize];
  }
  function canCloseOrEnqueue(c) { return !c[kCloseRequested] && c[kStream][kState] === 'readable'; }

  function shouldCallPull(c) {
    if (!canCloseOrEnqueue(c) || !c[kStarted]) return false;
    const r = c[kStream][kReader];
    if (r !== null && r[kRequests].length > 0) return true;
    return desiredSize(c) > 0;
  }
  function pullIfNeeded(c) {
    if (!shouldCallPull(c)) return;
    if (c[kPulling]) { c[kPullAgain] = true; return; }
    const source = c[kSource];
    if (typeof source.pull !== 'function') return;
    c[kPulling] = true;
    let p;
    try { p = source.pull.call(source, c); } catch (e) { c[kPulling] = false; controllerError(c, e); return; }
    Promise.resolve(p).then(() => {
      c[kPulling] = false;
      if (c[kPullAgain]) { c[kPullAgain] = false; pullIfNeeded(c); }
    }, (e) => controllerError(c, e));
  }

  function controllerClose(c) {
    if (!canCloseOrEnqueue(c)) throw new TypeError(CLOSED_MSG);
    if (c[kBytes]) byteClose(c); else defaultClose(c);
  }
  function controllerError(c, e) {
    const stream = c[kStream];
    if (stream[kState] !== 'readable') return;
    c[kQueue] = [];
    c[kQueueSize] = 0;
    if (c[kBytes]) { invalidateByobRequest(c); c[kPullIntos] = []; }
    streamError(stream, e);
  }

  function defaultEnqueue(c, chunk) {
    if (!canCloseOrEnqueue(c)) throw new TypeError('Unable to enqueue');
    const stream = c[kStream];
    const r = stream[kReader];
    if (r !== null && r[kRequests].length > 0) {
      r[kRequests].shift().resolve({ value: chunk, done: false });
    } else {
      let size = 1;
      if (c[kSize] !== undefined) {
        // workerd errors the stream with a bad size but does not throw from enqueue()
        try { size = internal.toHighWaterMark(c[kSize].call(undefined, chunk), 1); } catch (e) { controllerError(c, e); return; }
      }
      c[kQueue].push({ value: chunk, size });
      c[kQueueSize] += size;
    }
    pullIfNeeded(c);
  }
  function defaultClose(c) {
    c[kCloseRequested] = true;
    if (c[kQueue].length === 0) streamClose(c[kStream]);
  }

  // ---- byte controller (the standard's ReadableByteStreamController algorithms)

  function invalidateByobRequest(c) {
    const req = c[kByobRequest];
    if (req === null) return;
    req[kReqCtl] = null;
    req[kReqView] = null;
    c[kByobRequest] = null;
  }
  function byteQueuePush(c, buffer, byteOffset, byteLength) {
    c[kQueue].push({ buffer, byteOffset, byteLength });
    c[kQueueSize] += byteLength;
  }
  function byteEnqueue(c, chunk) {
    const stream = c[kStream];
    const byteOffset = chunk.byteOffset;
    const byteLength = chunk.byteLength;
    const buffer = transfer(chunk.buffer); // (detaches `chunk`: read its extent first)
    if (c[kPullIntos].length > 0) {
      invalidateByobRequest(c);
      const first = c[kPullIntos][0];
      if (first.readerType === 'none') { shiftPullInto(c); enqueueClonedChunk(c, first.buffer, first.byteOffset, first.bytesFilled); }
    }
    const r = stream[kReader];
    if (r !== null && !r[kByob]) {
      processReadRequestsUsingQueue(c);
      if (r[kRequests].length === 0) {
        byteQueuePush(c, buffer, byteOffset, byteLength);
      } else {
        if (c[kPullIntos].length > 0) shiftPullInto(c);
        r[kRequests].shift().resolve({ value: new Uint8Array(buffer, byteOffset, byteLength), done: false });
      }
    } else if (r !== null && r[kByob]) {
      byteQueuePush(c, buffer, byteOffset, byteLength);
      processPullIntosUsingQueue(c);
    } else {
      byteQueuePush(c, buffer, byteOffset, byteLength);
    }
    pullIfNeeded(c);
  }
  function enqueueClonedChunk(c, buffer, byteOffset, byteLength) {
    if (byteLength > 0) byteQueuePush(c, buffer.slice(byteOffset, byteOffset + byteLength), 0, byteLength);
  }
  function shiftPullInto(c) { return c[kPullIntos].shift(); }

  function processReadRequestsUsingQueue(c) {
    const r = c[kStream][kReader];
    while (r[kRequests].length > 0 && c[kQueueSize] > 0) {
      const e = c[kQueue].shift();
      c[kQueueSize] -= e.byteLength;
      handleQueueDrain(c, false);
      r[kRequests].shift().resolve({ value: new Uint8Array(e.buffer, e.byteOffset, e.byteLength), done: false });
    }
  }
  function processPullIntosUsingQueue(c) {
    while (c[kPullIntos].length > 0 && c[kQueueSize] > 0) {
      const d = c[kPullIntos][0];
      if (fillPullIntoFromQueue(c, d)) {
        shiftPullInto(c);
        commitPullInto(c, d);
      }
    }
  }
  function fillPullIntoFromQueue(c, d) {
    const maxToCopy = Math.min(c[kQueueSize], d.byteLength - d.bytesFilled);
    const maxFilled = d.bytesFilled + maxToCopy;
    let toCopy = maxToCopy;
    let ready = false;
    const aligned = maxFilled - (maxFilled % d.elementSize);
    if (aligned >= d.minimumFill) { toCopy = aligned - d.bytesFilled; ready = true; }
    const target = new Uint8Array(d.buffer);
    while (toCopy > 0) {
      const head = c[kQueue][0];
      const n = Math.min(toCopy, head.byteLength);
      target.set(new Uint8Array(head.buffer, head.byteOffset, n), d.byteOffset + d.bytesFilled);
      if (head.byteLength === n) c[kQueue].shift();
      else { head.byteOffset += n; head.byteLength -= n; }
      c[kQueueSize] -= n;
      invalidateByobRequest(c);
      d.bytesFilled += n;
      toCopy -= n;
    }
    return ready;
  }
  function handleQueueDrain(c, pull) {
    if (c[kQueueSize] === 0 && c[kCloseRequested]) { streamClose(c[kStream]); return; }
    if (pull) pullIfNeeded(c);
  }
  function convertPullInto(d) {
    const n = d.bytesFilled / d.elementSize;
    return d.viewCtor === DataView ? new DataView(d.buffer, d.byteOffset, d.bytesFilled) : new d.viewCtor(d.buffer, d.byteOffset, n);
  }
  function commitPullInto(c, d) {
    const stream = c[kStream];
    const done = stream[kState] === 'closed';
    const view = convertPullInto(d);
    const r = stream[kReader];
    if (r === null || r[kRequests].length === 0) return;
    if (d.readerType === 'default') r[kRequests].shift().resolve(done ? { value: undefined, done: true } : { value: view, done: false });
    else r[kRequests].shift().resolve({ value: view, done });
  }
  function byteClose(c) {
    if (c[kQueueSize] > 0) { c[kCloseRequested] = true; return; }
    if (c[kPullIntos].length > 0) {
      const first = c[kPullIntos][0];
      if (first.bytesFilled % first.elementSize !== 0) {
        const e = new TypeError('Insufficient bytes to fill elements in the given buffer');
        controllerError(c, e);
        throw e;
      }
    }
    c[kCloseRequested] = true;
    streamClose(c[kStream]);
  }
  function byteRespond(c, bytesWritten) {
    const d = c[kPullIntos][0];
    const state = c[kStream][kState];
    if (state === 'closed') {
      if (bytesWritten !== 0) throw new TypeError('The bytesWritten must be zero after the stream is closed.');
    } else {
      if (!(bytesWritten > 0)) throw new TypeError('The bytesWritten must be more than zero while the stream is open.');
      if (d.bytesFilled + bytesWritten > d.byteLength) throw new RangeError('Too many bytes [' + bytesWritten + '] in response to a BYOB read request.');
    }
    d.buffer = transfer(d.buffer);
    invalidateByobRequest(c);
    if (state === 'closed') {
      if (d.readerType === 'none') shiftPullInto(c);
      const r = c[kStream][kReader];
      if (r !== null && r[kByob]) {
        while (r[kRequests].length > 0 && c[kPullIntos].length > 0) commitPullInto(c, shiftPullInto(c));
      }
    } else {
      d.bytesFilled += bytesWritten;
      if (d.readerType === 'none') {
        if (d.bytesFilled > 0) enqueueClonedChunk(c, d.buffer, d.byteOffset, d.bytesFilled);
        shiftPullInto(c);
        processPullIntosUsingQueue(c);
      } else if (d.bytesFilled >= d.minimumFill) {
        shiftPullInto(c);
        const rest = d.bytesFilled % d.elementSize;
        if (rest > 0) {
          const end = d.byteOffset + d.bytesFilled;
          enqueueClonedChunk(c, d.buffer, end - rest, rest);
          d.bytesFilled -= rest;
        }
        commitPullInto(c, d);
        processPullIntosUsingQueue(c);
      }
    }
    pullIfNeeded(c);
  }
  function bytePullInto(c, view, min, request) {
    const stream = c[kStream];
    const elementSize = view instanceof DataView ? 1 : view.BYTES_PER_ELEMENT;
    const viewCtor = view instanceof DataView ? DataView : view.constructor;
    const byteOffset = view.byteOffset;
    const byteLength = view.byteLength;
    const buffer = transfer(view.buffer); // (detaches `view`: read its extent first)
    const d = {
      buffer, bufferByteLength: buffer.byteLength, byteOffset, byteLength, bytesFilled: 0, minimumFill: min * elementSize,
      elementSize, viewCtor, readerType: 'byob',
    };
    const r = stream[kReader];
    if (c[kPullIntos].length > 0) { c[kPullIntos].push(d); r[kRequests].push(request); return; }
    if (stream[kState] === 'closed') {
      request.resolve({ value: d.viewCtor === DataView ? new DataView(d.buffer, d.byteOffset, 0) : new d.viewCtor(d.buffer, d.byteOffset, 0), done: true });
      return;
    }
    if (c[kQueueSize] > 0) {
      if (fillPullIntoFromQueue(c, d)) {
        const filled = convertPullInto(d);
        handleQueueDrain(c, false);
        request.resolve({ value: filled, done: false });
        return;
      }
      if (c[kCloseRequested]) {
        const e = new TypeError('Insufficient bytes to fill elements in the given buffer');
        controllerError(c, e);
        request.reject(e);
        return;
      }
    }
    c[kPullIntos].push(d);
    r[kRequests].push(request);
    pullIfNeeded(c);
  }

  // ---------------------------------------------------------------- stream state changes

  function streamClose(stream) {
    stream[kState] = 'closed';
    const r = stream[kReader];
    if (r === null) return;
    settle(r[kClosed], true);
    if (!r[kByob]) for (const q of r[kRequests].splice(0)) q.resolve({ value: undefined, done: true });
    else {
      // workerd answers pending BYOB reads with done once the stream closes
      const c = stream[kCtl];
      while (r[kRequests].length > 0 && c[kPullIntos].length > 0) commitPullInto(c, shiftPullInto(c));
    }
  }
  function streamError(stream, e) {
    stream[kState] = 'errored';
    stream[kError] = e;
    const r = stream[kReader];
    if (r === null) return;
    settle(r[kClosed], false, e);
    for (const q of r[kRequests].splice(0)) q.reject(e);
  }
  function streamCancel(stream, reason) {
    stream[kDisturbed] = true;
    if (stream[kState] === 'closed') return Promise.resolve();
    if (stream[kState] === 'errored') return Promise.reject(stream[kError]);
    streamClose(stream);
    const r = stream[kReader];
    if (r !== null && r[kByob]) for (const q of r[kRequests].splice(0)) q.resolve({ value: undefined, done: true });
    const c = stream[kCtl];
    c[kQueue] = [];
    c[kQueueSize] = 0;
    if (c[kBytes]) { invalidateByobRequest(c); c[kPullIntos] = []; }
    const source = c[kSource];
    try {
      const p = typeof source.cancel === 'function' ? source.cancel.call(source, reason) : undefined;
      return Promise.resolve(p).then(noop);
    } catch (e) { return Promise.reject(e); }
  }

  function read(stream, request) {
    stream[kDisturbed] = true;
    const c = stream[kCtl];
    if (stream[kState] === 'closed') { request.resolve({ value: undefined, done: true }); return; }
    if (stream[kState] === 'errored') { request.reject(stream[kError]); return; }
    if (c[kBytes]) {
      if (c[kQueueSize] > 0) {
        const e = c[kQueue].shift();
        c[kQueueSize] -= e.byteLength;
        handleQueueDrain(c, false);
        request.resolve({ value: new Uint8Array(e.buffer, e.byteOffset, e.byteLength), done: false });
        return;
      }
      const auto = c[kAutoAllocate];
      if (auto !== undefined) {
        const buffer = new ArrayBuffer(auto);
        c[kPullIntos].push({ buffer, bufferByteLength: auto, byteOffset: 0, byteLength: auto, bytesFilled: 0, minimumFill: 1,
          elementSize: 1, viewCtor: Uint8Array, readerType: 'default' });
      }
      stream[kReader][kRequests].push(request);
      pullIfNeeded(c);
      return;
    }
    if (c[kQueue].length > 0) {
      const e = c[kQueue].shift();
      c[kQueueSize] -= e.size;
      if (c[kCloseRequested] && c[kQueue].length === 0) streamClose(stream);
      // (workerd does not call pull() after a read the queue could serve)
      request.resolve({ value: e.value, done: false });
      return;
    }
    stream[kReader][kRequests].push(request);
    pullIfNeeded(c);
  }

  // ---------------------------------------------------------------- ReadableStream

  class ReadableStream {
    constructor(source = undefined, strategy = undefined) {
      this[kState] = 'readable';
      this[kError] = undefined;
      this[kReader] = null;
      this[kDisturbed] = false;
      this[kCtl] = null;
      source = source === undefined || source === null ? {} : source;
      strategy = strategy === undefined || strategy === null ? {} : strategy;
      const type = source.type === undefined ? undefined : String(source.type);
      if (type === 'bytes') {
        const c = new ReadableByteStreamController(internal);
        const auto = source.autoAllocateChunkSize;
        if (auto !== undefined) {
          const n = Number(auto);
          if (!(n > 0) || !Number.isInteger(n)) throw new TypeError('The autoAllocateChunkSize option cannot be zero.');
          c[kAutoAllocate] = n;
        }
        setupController(this, c, source, internal.toHighWaterMark(strategy.highWaterMark, 0), undefined, true);
      } else if (type === undefined) {
        const size = strategy.size;
        if (size !== undefined && typeof size !== 'function') throw new TypeError('The size option of a queuing strategy must be a function.');
        setupController(this, new ReadableStreamDefaultController(internal), source, internal.toHighWaterMark(strategy.highWaterMark, 1), size, false);
      } else {
        throw new TypeError('"' + type + '" is not a valid type of ReadableStream.');
      }
    }
    get locked() { return this[kReader] !== null; }
    getReader(options = undefined) {
      const mode = options === undefined || options === null ? undefined : options.mode;
      if (mode === undefined) return new ReadableStreamDefaultReader(this);
      if (String(mode) !== 'byob') throw new TypeError("mode must be undefined or 'byob' in call to getReader().");
      return new ReadableStreamBYOBReader(this);
    }
    cancel(reason) {
      if (this[kReader] !== null) return Promise.reject(new TypeError(LOCKED));
      return streamCancel(this, reason);
    }
    tee() {
      if (this[kReader] !== null) throw new TypeError('This ReadableStream is currently locked to a reader,');
      return tee(this);
    }
    pipeTo(dest, options = undefined) {
      if (!internal.isInstance('WritableStream', dest)) {
        return Promise.reject(new TypeError("Failed to execute 'pipeTo' on 'ReadableStream': parameter 1 is not of type 'WritableStream'."));
      }
      if (this[kReader] !== null) return Promise.reject(new TypeError(LOCKED));
      if (dest.locked) return Promise.reject(new TypeError('This WritableStream is currently locked to a writer'));
      return pipe(this, dest, options === undefined || options === null ? {} : options);
    }
    pipeThrough(pair, options = undefined) {
      const readable = pair === null || pair === undefined ? undefined : pair.readable;
      const writable = pair === null || pair === undefined ? undefined : pair.writable;
      if (!(readable instanceof ReadableStream)) {
        throw new TypeError("Incorrect type for the 'readable' field on 'Transform': the provided value is not of type 'ReadableStream'.");
      }
      if (!internal.isInstance('WritableStream', writable)) {
        throw new TypeError("Incorrect type for the 'writable' field on 'Transform': the provided value is not of type 'WritableStream'.");
      }
      if (this[kReader] !== null) throw new TypeError(LOCKED);
      if (writable.locked) throw new TypeError('This WritableStream is currently locked to a writer');
      pipe(this, writable, options === undefined || options === null ? {} : options).catch(noop);
      return readable;
    }
    values(options = undefined) {
      const reader = new ReadableStreamDefaultReader(this);
      const preventCancel = !!(options && options.preventCancel);
      let finished = false;
      return {
        next() {
          if (finished) return Promise.resolve({ value: undefined, done: true });
          return reader.read().then((r) => {
            if (r.done) { finished = true; reader.releaseLock(); }
            return r;
          }, (e) => { finished = true; reader.releaseLock(); throw e; });
        },
        return(v) {
          if (finished) return Promise.resolve({ value: v, done: true });
          finished = true;
          const p = preventCancel ? Promise.resolve() : reader.cancel(v);
          return p.then(() => { reader.releaseLock(); return { value: v, done: true }; });
        },
        [Symbol.asyncIterator]() { return this; },
      };
    }
    [Symbol.asyncIterator](options) { return this.values(options); }
    static from(iterable) {
      let it = null;
      if (iterable !== null && iterable !== undefined) {
        const asyncFn = iterable[Symbol.asyncIterator];
        const syncFn = asyncFn === undefined || asyncFn === null ? iterable[Symbol.iterator] : undefined;
        if (typeof asyncFn === 'function') it = asyncFn.call(iterable);
        else if (typeof syncFn === 'function') it = syncFn.call(iterable);
      }
      if (it === null || typeof it !== 'object') {
        throw new TypeError("Failed to execute 'from' on 'ReadableStream': parameter 1 is not of type 'AsyncGenerator'.");
      }
      return new ReadableStream({
        pull(c) {
          return Promise.resolve(it.next()).then((r) => {
            if (r === null || typeof r !== 'object') throw new TypeError('The iterator result is not an object.');
            return Promise.resolve(r.value).then((v) => { if (r.done) c.close(); else c.enqueue(v); });
          });
        },
        cancel(reason) { return typeof it.return === 'function' ? Promise.resolve(it.return(reason)).then(noop) : undefined; },
      }, { highWaterMark: 0 });
    }
    get [Symbol.toStringTag]() { return 'ReadableStream'; }
  }

  // ---------------------------------------------------------------- readers

  function setupReader(reader, stream, byob) {
    if (!(stream instanceof ReadableStream)) {
      throw new TypeError("Failed to construct '" + (byob ? 'ReadableStreamBYOBReader' : 'ReadableStreamDefaultReader')
        + "': constructor parameter 1 is not of type 'ReadableStream'.");
    }
    if (stream[kReader] !== null) throw new TypeError(LOCKED);
    if (byob && !stream[kCtl][kBytes]) throw new TypeError('This ReadableStream does not support BYOB reads.');
    reader[kOwner] = stream;
    reader[kRequests] = [];
    reader[kByob] = byob;
    stream[kReader] = reader;
    if (stream[kState] === 'readable') reader[kClosed] = deferred();
    else if (stream[kState] === 'closed') reader[kClosed] = resolvedDeferred();
    else reader[kClosed] = rejectedDeferred(stream[kError]);
    reader[kClosed].promise.catch(noop);
  }
  function releaseReader(reader) {
    const stream = reader[kOwner];
    if (stream === null) return;
    const e = new TypeError(RELEASED);
    if (reader[kClosed].settled) reader[kClosed] = rejectedDeferred(e);
    else settle(reader[kClosed], false, e);
    reader[kClosed].promise.catch(noop);
    for (const q of reader[kRequests].splice(0)) q.reject(e);
    const c = stream[kCtl];
    if (c[kBytes]) { for (const d of c[kPullIntos]) d.readerType = 'none'; }
    stream[kReader] = null;
    reader[kOwner] = null;
  }

  // fn(the reader's stream), or a rejection once the reader was released.
  const withStream = (reader, fn) => (reader[kOwner] === null ? Promise.reject(new TypeError(RELEASED)) : fn(reader[kOwner]));

  class ReadableStreamDefaultReader {
    constructor(stream) { setupReader(this, stream, false); }
    get closed() { return this[kClosed].promise; }
    read() { return withStream(this, (stream) => { const d = deferred(); read(stream, d); return d.promise; }); }
    cancel(reason) { return withStream(this, (stream) => streamCancel(stream, reason)); }
    releaseLock() { releaseReader(this); }
    get [Symbol.toStringTag]() { return 'ReadableStreamDefaultReader'; }
  }

  class ReadableStreamBYOBReader {
    constructor(stream) { setupReader(this, stream, true); }
    get closed() { return this[kClosed].promise; }
    read(view, options = undefined) {
      if (!isView(view)) {
        return Promise.reject(new TypeError("Failed to execute 'read' on 'ReadableStreamBYOBReader': parameter 1 is not of type 'ArrayBufferView'."));
      }
      if (view.byteLength === 0 || view.buffer.byteLength === 0) {
        return Promise.reject(new TypeError('You must call read() on a "byob" reader with a positive-sized TypedArray object.'));
      }
      const length = view instanceof DataView ? view.byteLength : view.length;
      const min = options && options.min !== undefined ? Number(options.min) : 1;
      if (!(min >= 1) || !Number.isInteger(min)) return Promise.reject(new TypeError('Requested invalid minimum number of bytes to read (' + options.min + ').'));
      if (min > length) return Promise.reject(new TypeError('Minimum bytes to read (' + min + ') exceeds size of buffer (' + length + ').'));
      const stream = this[kOwner];
      if (stream === null) return Promise.reject(new TypeError(RELEASED));
      const d = deferred();
      stream[kDisturbed] = true;
      if (stream[kState] === 'errored') d.reject(stream[kError]);
      else bytePullInto(stream[kCtl], view, min, d);
      return d.promise;
    }
    cancel(reason) { return withStream(this, (stream) => streamCancel(stream, reason)); }
    releaseLock() { releaseReader(this); }
    get [Symbol.toStringTag]() { return 'ReadableStreamBYOBReader'; }
  }

  // ---------------------------------------------------------------- tee and pipe

  function tee(stream) {
    const reader = new ReadableStreamDefaultReader(stream);
    const bytes = stream[kCtl][kBytes];
    let reading = false, readAgain = false;
    let canceled1 = false, canceled2 = false;
    let reason2;
    let c1 = null, c2 = null;
    const cancelled = deferred();
    const copy = (v) => new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
    function pull() {
      if (reading) { readAgain = true; return Promise.resolve(); }
      reading = true;
      reader.read().then((r) => {
        queueMicrotask(() => {
          readAgain = false;
          if (r.done) {
            if (!canceled1) { try { c1.close(); } catch { } }
            if (!canceled2) { try { c2.close(); } catch { } }
            settle(cancelled, true);
            reading = false;
            return;
          }
          const v1 = r.value;
          const v2 = bytes && isView(v1) && !canceled1 && !canceled2 ? copy(v1) : v1;
          if (!canceled1) { try { c1.enqueue(v1); } catch { } }
          if (!canceled2) { try { c2.enqueue(v2); } catch { } }
          reading = false;
          if (readAgain) pull();
        });
      }, () => { reading = false; });
      return Promise.resolve();
    }
    function cancelBoth(reason) {
      settle(cancelled, true, streamCancel(stream, reason));
    }
    const source = (first) => ({
      type: bytes ? 'bytes' : undefined,
      start(c) { if (first) c1 = c; else c2 = c; },
      pull,
      cancel(reason) {
        if (first) canceled1 = true; else { canceled2 = true; reason2 = reason; }
        // workerd cancels the source once both branches are cancelled, with the last reason
        if (canceled1 && canceled2) cancelBoth(first ? reason : reason2);
        return canceled1 && canceled2 ? cancelled.promise : undefined;
      },
    });
    const b1 = new ReadableStream(source(true), bytes ? { highWaterMark: 0 } : undefined);
    const b2 = new ReadableStream(source(false), bytes ? { highWaterMark: 0 } : undefined);
    reader[kClosed].promise.catch((e) => {
      controllerError(c1, e);
      controllerError(c2, e);
      if (!canceled1 || !canceled2) settle(cancelled, true);
    });
    return [b1, b2];
  }

  // workerd's pipe: read one chunk, write it, wait for the write, repeat (so a slow sink holds the
  // source back by a single chunk).
  function pipe(source, dest, options) {
    const preventClose = !!options.preventClose;
    const preventAbort = !!options.preventAbort;
    const preventCancel = !!options.preventCancel;
    const signal = options.signal;
    if (signal !== undefined && !internal.isInstance('AbortSignal', signal)) {
      return Promise.reject(new TypeError("Failed to execute 'pipeTo' on 'ReadableStream': signal is not of type 'AbortSignal'."));
    }
    const reader = new ReadableStreamDefaultReader(source);
    const writer = dest.getWriter();
    source[kDisturbed] = true;
    const done = deferred();
    let finished = false;
    let onAbort = null;
    function finish(ok, v) {
      if (finished) return;
      finished = true;
      if (onAbort !== null) signal.removeEventListener('abort', onAbort);
      writer.releaseLock();
      releaseReader(reader);
      settle(done, ok, v);
    }
    function fail(e, abortDest, cancelSource) {
      const actions = [];
      if (abortDest && !preventAbort) actions.push(writer.abort(e).catch(noop));
      if (cancelSource && !preventCancel) actions.push(streamCancel(source, e).catch(noop));
      Promise.all(actions).then(() => finish(false, e));
    }
    if (signal !== undefined) {
      if (signal.aborted) { fail(signal.reason, true, true); return done.promise; }
      onAbort = () => fail(signal.reason, true, true);
      signal.addEventListener('abort', onAbort);
    }
    function step() {
      if (finished) return;
      writer.ready.then(() => {
        if (finished) return undefined;
        const d = deferred();
        read(source, d);
        return d.promise.then((r) => {
          if (finished) return;
          if (r.done) {
            if (preventClose) { finish(true); return; }
            writer.close().then(() => finish(true), (e) => finish(false, e));
            return;
          }
          writer.write(r.value).then(step, (e) => fail(e, false, true));
        }, (e) => fail(e, true, false));
      }, (e) => fail(e, false, true));
    }
    if (source[kState] === 'errored') fail(source[kError], true, false);
    else if (internal.wsState(dest) === 'errored') fail(internal.wsStoredError(dest), false, true);
    else step();
    return done.promise;
  }

  // ---------------------------------------------------------------- for the rest of the runtime

  internal.rsDesired = (s) => desiredSize(s[kCtl]);
  internal.rsEnqueue = (s, chunk) => (s[kCtl][kBytes] ? s[kCtl].enqueue(chunk) : defaultEnqueue(s[kCtl], chunk));
  internal.rsClose = (s) => controllerClose(s[kCtl]);
  internal.rsError = (s, e) => controllerError(s[kCtl], e);
  internal.rsRead = (s) => { const d = deferred(); read(s, d); return d.promise; };
  internal.rsCancel = (s, r) => streamCancel(s, r);
  internal.rsDisturbed = (s) => s[kDisturbed];

  // A body produced by Java (InboundStream): one host pull per JS pull.
  internal.streamFromHost = function (handle) {
    return new ReadableStream({
      type: 'bytes',
      pull(c) {
        return new Promise((resolve) => {
          handle.pull((kind, v) => {
            // (a stream cancelled or errored meanwhile takes nothing more)
            if (!canCloseOrEnqueue(c)) { resolve(); return; }
            if (kind === 0) c.enqueue(new Uint8Array(new ArrayBuffer(v)));
            else if (kind === 1) { c.close(); const r = c.byobRequest; if (r !== null) r.respond(0); }
            else c.error(new TypeError('Network connection lost: ' + v));
            resolve();
          });
        });
      },
      cancel() { handle.cancel(); },
    }, { highWaterMark: 0 });
  };

  // Reads one chunk for Java (OutboundBodyPublisher) and reports it on the sink.
  internal.pumpOne = function pumpOne(reader, sink) {
    reader.read().then(({ done, value }) => {
      if (done) { sink.end(); return; }
      if (typeof value === 'string') value = internal.encoder.encode(value);
      if (value instanceof ArrayBuffer) value = new Uint8Array(value);
      if (!isView(value)) {
        const e = new TypeError('This ReadableStream did not return bytes.');
        sink.error(...internal.errorParts(e));
        return;
      }
      if (value.byteLength === 0) { pumpOne(reader, sink); return; }
      sink.chunk(value.buffer, value.byteOffset, value.byteLength);
    }, (e) => sink.error(...internal.errorParts(e)));
  };

  internal.readAllBytes = async function (stream) {
    const reader = stream.getReader();
    const chunks = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const bytes = typeof value === 'string' ? internal.encoder.encode(value)
        : value instanceof ArrayBuffer ? new Uint8Array(value) : isView(value)
          ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : null;
      if (bytes === null) throw new TypeError('This ReadableStream did not return bytes.');
      chunks.push(bytes);
      total += bytes.byteLength;
    }
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) { out.set(c, at); at += c.byteLength; }
    return out;
  };

  internal.defineGlobal('ReadableStream', ReadableStream);
  internal.defineGlobal('ReadableStreamDefaultReader', ReadableStreamDefaultReader);
  internal.defineGlobal('ReadableStreamBYOBReader', ReadableStreamBYOBReader);
  internal.defineGlobal('ReadableStreamDefaultController', ReadableStreamDefaultController);
  internal.defineGlobal('ReadableByteStreamController', ReadableByteStreamController);
  internal.defineGlobal('ReadableStreamBYOBRequest', ReadableStreamBYOBRequest);
});
