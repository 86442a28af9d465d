// The small globals of a Worker: navigator (class Navigator), performance, scheduler and self, as
// workerd has them. `performance.now()` is `Date.now()` with timeOrigin 0, as under miniflare
// (workerd's local mode); on Cloudflare the clock only advances across I/O.
(function (host, internal) {
  'use strict';
  const ILLEGAL = 'Illegal constructor';
  const TOKEN = Symbol('construct');

  class Navigator {
    constructor(key) {
      if (key !== TOKEN) throw new TypeError(ILLEGAL);
      // (own, enumerable data properties, in workerd's order; language from compatibility date 2025-05-19)
      if (internal.compat.navigatorLanguage) { this.languages = ['en']; this.language = 'en'; }
      this.platform = '';
      this.hardwareConcurrency = 1;
      this.userAgent = 'Cloudflare-Workers';
    }
    // Sends `data` to `url` with a POST and does not wait for the answer.
    sendBeacon(url, data = undefined) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'sendBeacon' on 'Navigator': parameter 1 is not of type 'string'.");
      const init = { method: 'POST' };
      if (data !== undefined && data !== null) init.body = data;
      internal.builtin('fetch')(String(url), init).then((r) => (r.body === null ? undefined : r.body.cancel()), () => { });
      return true;
    }
    get [Symbol.toStringTag]() { return 'Navigator'; }
  }

  class Performance {
    constructor(key) { if (key !== TOKEN) throw new TypeError(ILLEGAL); }
    get timeOrigin() { return 0; }
    now() { return Date.now(); }
    get [Symbol.toStringTag]() { return 'Performance'; }
  }

  class Scheduler {
    constructor(key) { if (key !== TOKEN) throw new TypeError(ILLEGAL); }
    wait(delay, options = undefined) {
      if (arguments.length === 0) return Promise.reject(new TypeError("Failed to execute 'wait' on 'Scheduler': parameter 1 is not of type 'number'."));
      const signal = options === undefined || options === null ? undefined : options.signal;
      if (signal !== undefined && !internal.isInstance('AbortSignal', signal)) {
        return Promise.reject(new TypeError("Incorrect type for the 'signal' field on 'WaitOptions': the provided value is not of type 'AbortSignal'."));
      }
      if (signal !== undefined && signal.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        const onAbort = () => { clearTimeout(id); reject(signal.reason); };
        const id = setTimeout(() => { if (signal !== undefined) signal.removeEventListener('abort', onAbort); resolve(); }, Number(delay) || 0);
        if (signal !== undefined) signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    get [Symbol.toStringTag]() { return 'Scheduler'; }
  }

  internal.defineGlobal('Navigator', Navigator);
  internal.defineGlobal('navigator', new Navigator(TOKEN));
  internal.defineGlobal('performance', new Performance(TOKEN));
  internal.defineGlobal('scheduler', new Scheduler(TOKEN));
  internal.defineGlobal('self', globalThis);
});
