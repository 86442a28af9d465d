// ReadableStream with default readers (and async iteration, tee, pipeTo/pipeThrough, from).
// Bodies from the host are ReadableStreams whose pull asks Java for exactly one chunk, so a slow
// reader holds back the producer; bodies to the host are read one chunk per unit of demand.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kS = Symbol('ReadableStreamDefaultController.s');
  const kState = Symbol('ReadableStream.state');
  const kQueue = Symbol('ReadableStream.queue');
  const kReader = Symbol('ReadableStream.reader');
  const kReads = Symbol('ReadableStream.reads');
  const kError = Symbol('ReadableStream.error');
  const kSource = Symbol('ReadableStream.source');
  const kHwm = Symbol('ReadableStream.hwm');
  const kPulling = Symbol('ReadableStream.pulling');
  const kPullAgain = Symbol('ReadableStream.pullAgain');
  const kStarted = Symbol('ReadableStream.started');
  const kCloseRequested = Symbol('ReadableStream.closeRequested');
  const kDisturbed = Symbol('ReadableStream.disturbed');
  const kController = Symbol('ReadableStream.controller');
  const kDemandWaiters = Symbol('ReadableStream.demandWaiters');
  const kCancel = Symbol('ReadableStream.cancel');
  const kFinish = Symbol('ReadableStream.finish');
  const kFail = Symbol('ReadableStream.fail');
  const kDesired = Symbol('ReadableStream.desired');
  const kWakeDemand = Symbol('ReadableStream.wakeDemand');
  const kMaybePull = Symbol('ReadableStream.maybePull');
  const kRead = Symbol('ReadableStream.read');
  const kStream = Symbol('ReadableStreamDefaultReader.stream');
  const kClosed = Symbol('ReadableStreamDefaultReader.closed');
  const kResolveClosed = Symbol('ReadableStreamDefaultReader.resolveClosed');
  const kRejectClosed = Symbol('ReadableStreamDefaultReader.rejectClosed');
  const CLOSED = { done: true, value: undefined };

  class ReadableStreamDefaultController {
    [kS];
    constructor(key, s) { if (key !== internal) throw new TypeError('Illegal constructor'); this[kS] = s; }
    get desiredSize() { return internal.rsDesired(this[kS]); }
    enqueue(chunk) { internal.rsEnqueue(this[kS], chunk); }
    close() { internal.rsClose(this[kS]); }
    error(e) { internal.rsError(this[kS], e); }
  }

  class ReadableStream {
    [kState] = 'readable';
    [kQueue] = [];
    [kReader] = null;
    [kReads] = [];
    [kError];
    [kSource];
    [kHwm];
    [kPulling] = false;
    [kPullAgain] = false;
    [kStarted] = false;
    [kCloseRequested] = false;
    [kDisturbed] = false;
    [kController];
    [kDemandWaiters] = [];

    constructor(source = {}, strategy = {}) {
      source = source === null ? {} : source;
      if (source.type !== undefined && source.type !== 'bytes') throw new RangeError('Invalid type: ' + source.type);
      this[kSource] = source;
      this[kHwm] = strategy && strategy.highWaterMark !== undefined ? Number(strategy.highWaterMark) : (source.type === 'bytes' ? 0 : 1);
      this[kController] = new ReadableStreamDefaultController(internal, this);
      let started;
      try {
        started = typeof source.start === 'function' ? source.start.call(source, this[kController]) : undefined;
      } catch (e) { this[kFail](e); throw e; }
      Promise.resolve(started).then(() => { this[kStarted] = true; this[kMaybePull](); }, (e) => this[kFail](e));
    }

    get locked() { return this[kReader] !== null; }
    getReader(options) {
      if (options && options.mode === 'byob') throw internal.unsupported('ReadableStream BYOB readers (getReader({mode: "byob"}))');
      if (options && options.mode !== undefined) throw new RangeError('Invalid reader mode: ' + options.mode);
      return new ReadableStreamDefaultReader(this);
    }
    cancel(reason) {
      if (this.locked) return Promise.reject(new TypeError('This ReadableStream is currently locked to a reader.'));
      return this[kCancel](reason);
    }
    [kCancel](reason) {
      this[kDisturbed] = true;
      if (this[kState] === 'closed') return Promise.resolve();
      if (this[kState] === 'errored') return Promise.reject(this[kError]);
      this[kQueue] = [];
      this[kFinish]();
      try {
        const r = typeof this[kSource].cancel === 'function' ? this[kSource].cancel.call(this[kSource], reason) : undefined;
        return Promise.resolve(r).then(() => undefined);
      } catch (e) { return Promise.reject(e); }
    }
    [kFinish]() {
      this[kState] = 'closed';
      for (const r of this[kReads].splice(0)) r.resolve(CLOSED);
      if (this[kReader]) internal.readerClosed(this[kReader], null);
      this[kWakeDemand]();
    }
    [kFail](e) {
      if (this[kState] !== 'readable') return;
      this[kState] = 'errored';
      this[kError] = e;
      this[kQueue] = [];
      for (const r of this[kReads].splice(0)) r.reject(e);
      if (this[kReader]) internal.readerClosed(this[kReader], e);
      this[kWakeDemand]();
    }
    [kDesired]() {
      if (this[kState] === 'errored') return null;
      if (this[kState] === 'closed') return 0;
      return this[kHwm] - this[kQueue].length;
    }
    [kWakeDemand]() { for (const w of this[kDemandWaiters].splice(0)) w(); }
    [kMaybePull]() {
      if (!this[kStarted] || this[kState] !== 'readable' || this[kCloseRequested]) return;
      if (this[kReads].length === 0 && this[kDesired]() <= 0) return;
      if (typeof this[kSource].pull !== 'function') { this[kWakeDemand](); return; }
      if (this[kPulling]) { this[kPullAgain] = true; return; }
      this[kPulling] = true;
      let p;
      try { p = this[kSource].pull.call(this[kSource], this[kController]); } catch (e) { this[kFail](e); return; }
      Promise.resolve(p).then(() => {
        this[kPulling] = false;
        if (this[kPullAgain]) { this[kPullAgain] = false; this[kMaybePull](); }
      }, (e) => this[kFail](e));
    }
    [kRead]() {
      this[kDisturbed] = true;
      if (this[kQueue].length > 0) {
        const value = this[kQueue].shift();
        if (this[kCloseRequested] && this[kQueue].length === 0) this[kFinish]();
        else this[kMaybePull]();
        return Promise.resolve({ done: false, value });
      }
      if (this[kState] === 'closed') return Promise.resolve(CLOSED);
      if (this[kState] === 'errored') return Promise.reject(this[kError]);
      return new Promise((resolve, reject) => {
        this[kReads].push({ resolve, reject });
        this[kWakeDemand]();
        this[kMaybePull]();
      });
    }
    tee() {
      const reader = this.getReader();
      let c1, c2, pulling = false;
      const pull = () => {
        if (pulling) return Promise.resolve();
        pulling = true;
        return reader.read().then(({ done, value }) => {
          pulling = false;
          if (done) { try { c1.close(); } catch { } try { c2.close(); } catch { } return; }
          const copy = ArrayBuffer.isView(value) ? new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)) : value;
          try { c1.enqueue(value); } catch { }
          try { c2.enqueue(copy); } catch { }
        }, (e) => { c1.error(e); c2.error(e); });
      };
      let cancelled = 0;
      const cancel = () => { if (++cancelled === 2) return reader.cancel(); return undefined; };
      const a = new ReadableStream({ start(c) { c1 = c; }, pull, cancel });
      const b = new ReadableStream({ start(c) { c2 = c; }, pull, cancel });
      return [a, b];
    }
    async pipeTo(dest, options = {}) {
      const reader = this.getReader();
      const writer = dest.getWriter();
      const signal = options.signal;
      try {
        for (;;) {
          if (signal && signal.aborted) throw signal.reason;
          const { done, value } = await reader.read();
          if (done) break;
          await writer.ready;
          await writer.write(value);
        }
        if (!options.preventClose) await writer.close();
      } catch (e) {
        if (!options.preventAbort) await writer.abort(e).catch(() => { });
        if (!options.preventCancel) await reader.cancel(e).catch(() => { });
        throw e;
      } finally {
        reader.releaseLock();
        writer.releaseLock();
      }
    }
    pipeThrough(pair, options) {
      this.pipeTo(pair.writable, options).catch(() => { });
      return pair.readable;
    }
    values(options = {}) {
      const reader = this.getReader();
      const preventCancel = !!options.preventCancel;
      return {
        next: () => reader.read(),
        return: async (v) => { if (!preventCancel) await reader.cancel(v); reader.releaseLock(); return { done: true, value: v }; },
        [Symbol.asyncIterator]() { return this; },
      };
    }
    [Symbol.asyncIterator](options) { return this.values(options); }
    static from(iterable) {
      const it = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
      return new ReadableStream({
        async pull(c) { const { done, value } = await it.next(); if (done) c.close(); else c.enqueue(value); },
        async cancel(r) { if (typeof it.return === 'function') await it.return(r); },
      }, { highWaterMark: 0 });
    }
    static {
      internal.rsDesired = (s) => s[kDesired]();
      internal.rsEnqueue = (s, chunk) => {
        if (s[kState] !== 'readable' || s[kCloseRequested]) throw new TypeError('Cannot enqueue to a closed or errored ReadableStream.');
        if (s[kSource].type === 'bytes' && !ArrayBuffer.isView(chunk)) throw new TypeError('A byte stream only accepts ArrayBufferView chunks.');
        if (s[kReads].length > 0) s[kReads].shift().resolve({ done: false, value: chunk });
        else s[kQueue].push(chunk);
        s[kMaybePull]();
      };
      internal.rsClose = (s) => {
        if (s[kState] !== 'readable' || s[kCloseRequested]) throw new TypeError('The ReadableStream is already closed.');
        s[kCloseRequested] = true;
        if (s[kQueue].length === 0) s[kFinish]();
      };
      internal.rsError = (s, e) => s[kFail](e);
      internal.rsRead = (s) => s[kRead]();
      internal.rsCancel = (s, r) => s[kCancel](r);
      internal.rsLock = (s, reader) => {
        if (s[kReader] !== null) throw new TypeError('This ReadableStream is currently locked to a reader.');
        s[kReader] = reader;
        return s[kState] === 'errored' ? s[kError] : s[kState];
      };
      internal.rsUnlock = (s) => { s[kReader] = null; };
      internal.rsDisturbed = (s) => s[kDisturbed];
      internal.rsWaitForDemand = (s) => (s[kReads].length > 0 || s[kDesired]() > 0 || s[kState] !== 'readable'
        ? Promise.resolve() : new Promise((r) => s[kDemandWaiters].push(r)));
    }
  }

  class ReadableStreamDefaultReader {
    [kStream];
    [kClosed];
    [kResolveClosed];
    [kRejectClosed];
    constructor(stream) {
      if (!(stream instanceof ReadableStream)) throw new TypeError('ReadableStreamDefaultReader needs a ReadableStream');
      this[kClosed] = new Promise((res, rej) => { this[kResolveClosed] = res; this[kRejectClosed] = rej; });
      this[kClosed].catch(() => { });
      const state = internal.rsLock(stream, this);
      this[kStream] = stream;
      if (state === 'closed') this[kResolveClosed]();
      else if (state !== 'readable') this[kRejectClosed](state);
    }
    get closed() { return this[kClosed]; }
    read() {
      if (!this[kStream]) return Promise.reject(new TypeError('This ReadableStream reader has been released.'));
      return internal.rsRead(this[kStream]);
    }
    cancel(reason) {
      if (!this[kStream]) return Promise.reject(new TypeError('This ReadableStream reader has been released.'));
      return internal.rsCancel(this[kStream], reason);
    }
    releaseLock() {
      if (!this[kStream]) return;
      internal.rsUnlock(this[kStream]);
      this[kStream] = null;
      this[kRejectClosed](new TypeError('This ReadableStream reader has been released.'));
    }
    static {
      internal.readerClosed = (r, e) => { if (e === null) r[kResolveClosed](); else r[kRejectClosed](e); };
    }
  }

  // A body produced by Java (InboundStream): one host pull per JS pull.
  internal.streamFromHost = function (handle) {
    return new ReadableStream({
      type: 'bytes',
      pull(c) {
        return new Promise((resolve) => {
          handle.pull((kind, v) => {
            if (kind === 0) c.enqueue(new Uint8Array(new ArrayBuffer(v)));
            else if (kind === 1) c.close();
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
      if (!ArrayBuffer.isView(value)) {
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
        : value instanceof ArrayBuffer ? new Uint8Array(value) : ArrayBuffer.isView(value)
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
  internal.defineGlobal('ReadableStreamDefaultController', ReadableStreamDefaultController);
});
