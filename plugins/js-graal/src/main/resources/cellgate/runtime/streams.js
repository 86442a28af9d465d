// ReadableStream with default readers (and async iteration, tee, pipeTo/pipeThrough, from).
// Bodies from the host are ReadableStreams whose pull asks Java for exactly one chunk, so a slow
// reader holds back the producer; bodies to the host are read one chunk per unit of demand.
(function (host, internal) {
  'use strict';
  const CLOSED = { done: true, value: undefined };

  class ReadableStreamDefaultController {
    #s;
    constructor(key, s) { if (key !== internal) throw new TypeError('Illegal constructor'); this.#s = s; }
    get desiredSize() { return internal.rsDesired(this.#s); }
    enqueue(chunk) { internal.rsEnqueue(this.#s, chunk); }
    close() { internal.rsClose(this.#s); }
    error(e) { internal.rsError(this.#s, e); }
  }

  class ReadableStream {
    #state = 'readable';
    #queue = [];
    #reader = null;
    #reads = [];
    #error;
    #source;
    #hwm;
    #pulling = false;
    #pullAgain = false;
    #started = false;
    #closeRequested = false;
    #disturbed = false;
    #controller;
    #demandWaiters = [];

    constructor(source = {}, strategy = {}) {
      source = source === null ? {} : source;
      if (source.type !== undefined && source.type !== 'bytes') throw new RangeError('Invalid type: ' + source.type);
      this.#source = source;
      this.#hwm = strategy && strategy.highWaterMark !== undefined ? Number(strategy.highWaterMark) : (source.type === 'bytes' ? 0 : 1);
      this.#controller = new ReadableStreamDefaultController(internal, this);
      let started;
      try {
        started = typeof source.start === 'function' ? source.start.call(source, this.#controller) : undefined;
      } catch (e) { this.#fail(e); throw e; }
      Promise.resolve(started).then(() => { this.#started = true; this.#maybePull(); }, (e) => this.#fail(e));
    }

    get locked() { return this.#reader !== null; }
    getReader(options) {
      if (options && options.mode === 'byob') throw internal.unsupported('ReadableStream BYOB readers (getReader({mode: "byob"}))');
      if (options && options.mode !== undefined) throw new RangeError('Invalid reader mode: ' + options.mode);
      return new ReadableStreamDefaultReader(this);
    }
    cancel(reason) {
      if (this.locked) return Promise.reject(new TypeError('This ReadableStream is currently locked to a reader.'));
      return this.#cancel(reason);
    }
    #cancel(reason) {
      this.#disturbed = true;
      if (this.#state === 'closed') return Promise.resolve();
      if (this.#state === 'errored') return Promise.reject(this.#error);
      this.#queue = [];
      this.#finish();
      try {
        const r = typeof this.#source.cancel === 'function' ? this.#source.cancel.call(this.#source, reason) : undefined;
        return Promise.resolve(r).then(() => undefined);
      } catch (e) { return Promise.reject(e); }
    }
    #finish() {
      this.#state = 'closed';
      for (const r of this.#reads.splice(0)) r.resolve(CLOSED);
      if (this.#reader) internal.readerClosed(this.#reader, null);
      this.#wakeDemand();
    }
    #fail(e) {
      if (this.#state !== 'readable') return;
      this.#state = 'errored';
      this.#error = e;
      this.#queue = [];
      for (const r of this.#reads.splice(0)) r.reject(e);
      if (this.#reader) internal.readerClosed(this.#reader, e);
      this.#wakeDemand();
    }
    #desired() {
      if (this.#state === 'errored') return null;
      if (this.#state === 'closed') return 0;
      return this.#hwm - this.#queue.length;
    }
    #wakeDemand() { for (const w of this.#demandWaiters.splice(0)) w(); }
    #maybePull() {
      if (!this.#started || this.#state !== 'readable' || this.#closeRequested) return;
      if (this.#reads.length === 0 && this.#desired() <= 0) return;
      if (typeof this.#source.pull !== 'function') { this.#wakeDemand(); return; }
      if (this.#pulling) { this.#pullAgain = true; return; }
      this.#pulling = true;
      let p;
      try { p = this.#source.pull.call(this.#source, this.#controller); } catch (e) { this.#fail(e); return; }
      Promise.resolve(p).then(() => {
        this.#pulling = false;
        if (this.#pullAgain) { this.#pullAgain = false; this.#maybePull(); }
      }, (e) => this.#fail(e));
    }
    #read() {
      this.#disturbed = true;
      if (this.#queue.length > 0) {
        const value = this.#queue.shift();
        if (this.#closeRequested && this.#queue.length === 0) this.#finish();
        else this.#maybePull();
        return Promise.resolve({ done: false, value });
      }
      if (this.#state === 'closed') return Promise.resolve(CLOSED);
      if (this.#state === 'errored') return Promise.reject(this.#error);
      return new Promise((resolve, reject) => {
        this.#reads.push({ resolve, reject });
        this.#wakeDemand();
        this.#maybePull();
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
      internal.rsDesired = (s) => s.#desired();
      internal.rsEnqueue = (s, chunk) => {
        if (s.#state !== 'readable' || s.#closeRequested) throw new TypeError('Cannot enqueue to a closed or errored ReadableStream.');
        if (s.#source.type === 'bytes' && !ArrayBuffer.isView(chunk)) throw new TypeError('A byte stream only accepts ArrayBufferView chunks.');
        if (s.#reads.length > 0) s.#reads.shift().resolve({ done: false, value: chunk });
        else s.#queue.push(chunk);
        s.#maybePull();
      };
      internal.rsClose = (s) => {
        if (s.#state !== 'readable' || s.#closeRequested) throw new TypeError('The ReadableStream is already closed.');
        s.#closeRequested = true;
        if (s.#queue.length === 0) s.#finish();
      };
      internal.rsError = (s, e) => s.#fail(e);
      internal.rsRead = (s) => s.#read();
      internal.rsCancel = (s, r) => s.#cancel(r);
      internal.rsLock = (s, reader) => {
        if (s.#reader !== null) throw new TypeError('This ReadableStream is currently locked to a reader.');
        s.#reader = reader;
        return s.#state === 'errored' ? s.#error : s.#state;
      };
      internal.rsUnlock = (s) => { s.#reader = null; };
      internal.rsDisturbed = (s) => s.#disturbed;
      internal.rsWaitForDemand = (s) => (s.#reads.length > 0 || s.#desired() > 0 || s.#state !== 'readable'
        ? Promise.resolve() : new Promise((r) => s.#demandWaiters.push(r)));
    }
  }

  class ReadableStreamDefaultReader {
    #stream;
    #closed;
    #resolveClosed;
    #rejectClosed;
    constructor(stream) {
      if (!(stream instanceof ReadableStream)) throw new TypeError('ReadableStreamDefaultReader needs a ReadableStream');
      this.#closed = new Promise((res, rej) => { this.#resolveClosed = res; this.#rejectClosed = rej; });
      this.#closed.catch(() => { });
      const state = internal.rsLock(stream, this);
      this.#stream = stream;
      if (state === 'closed') this.#resolveClosed();
      else if (state !== 'readable') this.#rejectClosed(state);
    }
    get closed() { return this.#closed; }
    read() {
      if (!this.#stream) return Promise.reject(new TypeError('This ReadableStream reader has been released.'));
      return internal.rsRead(this.#stream);
    }
    cancel(reason) {
      if (!this.#stream) return Promise.reject(new TypeError('This ReadableStream reader has been released.'));
      return internal.rsCancel(this.#stream, reason);
    }
    releaseLock() {
      if (!this.#stream) return;
      internal.rsUnlock(this.#stream);
      this.#stream = null;
      this.#rejectClosed(new TypeError('This ReadableStream reader has been released.'));
    }
    static {
      internal.readerClosed = (r, e) => { if (e === null) r.#resolveClosed(); else r.#rejectClosed(e); };
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
