// AbortController and AbortSignal (abort, timeout, any).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kAborted = Symbol('AbortSignal.aborted');
  const kReason = Symbol('AbortSignal.reason');
  const kOnabort = Symbol('AbortSignal.onabort');
  const kSignal = Symbol('AbortController.signal');
  const CREATE = Symbol('create');

  class AbortSignal extends EventTarget {
    [kAborted] = false;
    [kReason] = undefined;
    [kOnabort] = null;
    constructor(key) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      super();
    }
    get aborted() { return this[kAborted]; }
    get reason() { return this[kReason]; }
    get onabort() { return this[kOnabort]; }
    set onabort(fn) {
      if (this[kOnabort]) this.removeEventListener('abort', this[kOnabort]);
      this[kOnabort] = typeof fn === 'function' ? fn : null;
      if (this[kOnabort]) this.addEventListener('abort', this[kOnabort]);
    }
    throwIfAborted() { if (this[kAborted]) throw this[kReason]; }

    static abort(reason) {
      const s = new AbortSignal(CREATE);
      s[kAborted] = true;
      s[kReason] = reason === undefined ? new DOMException('The operation was aborted', 'AbortError') : reason;
      return s;
    }
    static timeout(ms) {
      ms = Number(ms);
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError("Failed to execute 'timeout' on 'AbortSignal': Value is outside the 'unsigned long long' value range.");
      const s = new AbortSignal(CREATE);
      setTimeout(() => internal.abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
      return s;
    }
    static any(signals) {
      const s = new AbortSignal(CREATE);
      for (const x of signals) {
        if (!(x instanceof AbortSignal)) throw new TypeError("Failed to execute 'any' on 'AbortSignal': parameter 1 is not a sequence of AbortSignal.");
        if (x.aborted) { internal.abortSignal(s, x.reason); return s; }
      }
      for (const x of signals) x.addEventListener('abort', () => internal.abortSignal(s, x.reason), { once: true });
      return s;
    }
    static {
      internal.newAbortSignal = () => new AbortSignal(CREATE);
      internal.abortSignal = (s, reason) => {
        if (s[kAborted]) return;
        s[kAborted] = true;
        s[kReason] = reason === undefined ? new DOMException('The operation was aborted', 'AbortError') : reason;
        s.dispatchEvent(new Event('abort'));
      };
    }
  }

  class AbortController {
    [kSignal] = internal.newAbortSignal();
    get signal() { return this[kSignal]; }
    abort(reason) { internal.abortSignal(this[kSignal], reason); }
  }

  internal.defineGlobal('AbortSignal', AbortSignal);
  internal.defineGlobal('AbortController', AbortController);
});
