// AbortController and AbortSignal (abort, timeout, any).
(function (host, internal) {
  'use strict';
  const CREATE = Symbol('create');

  class AbortSignal extends EventTarget {
    #aborted = false;
    #reason = undefined;
    #onabort = null;
    constructor(key) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      super();
    }
    get aborted() { return this.#aborted; }
    get reason() { return this.#reason; }
    get onabort() { return this.#onabort; }
    set onabort(fn) {
      if (this.#onabort) this.removeEventListener('abort', this.#onabort);
      this.#onabort = typeof fn === 'function' ? fn : null;
      if (this.#onabort) this.addEventListener('abort', this.#onabort);
    }
    throwIfAborted() { if (this.#aborted) throw this.#reason; }

    static abort(reason) {
      const s = new AbortSignal(CREATE);
      s.#aborted = true;
      s.#reason = reason === undefined ? new DOMException('The operation was aborted.', 'AbortError') : reason;
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
        if (s.#aborted) return;
        s.#aborted = true;
        s.#reason = reason === undefined ? new DOMException('The operation was aborted.', 'AbortError') : reason;
        s.dispatchEvent(new Event('abort'));
      };
    }
  }

  class AbortController {
    #signal = internal.newAbortSignal();
    get signal() { return this.#signal; }
    abort(reason) { internal.abortSignal(this.#signal, reason); }
  }

  internal.defineGlobal('AbortSignal', AbortSignal);
  internal.defineGlobal('AbortController', AbortController);
});
