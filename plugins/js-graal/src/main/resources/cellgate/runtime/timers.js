// setTimeout/setInterval/clear*, queueMicrotask. Expiry is a Vert.x timer posted to the
// instance's executor (host.setTimer); the callbacks and interval re-arming live here.
(function (host, internal) {
  'use strict';
  const timers = new Map();
  let nextId = 1;
  // AsyncLocalStorage (nodejs_compat, nodejs_als: GraalJsEngine.newContext switches the engine's
  // AsyncContext on). The engine carries the context through promises; a timer callback runs in
  // the context it was scheduled in, as on workerd. The AsyncContext global is ours, not the Worker's.
  const AsyncContext = globalThis.AsyncContext;
  if (AsyncContext !== undefined) {
    delete globalThis.AsyncContext;
    internal.AsyncContext = AsyncContext;
  }
  const inContext = AsyncContext === undefined ? (fn) => fn : (fn) => {
    const snapshot = new AsyncContext.Snapshot();
    return function (...args) { return snapshot.run(() => fn.apply(this, args)); };
  };

  function schedule(fn, delay, args, repeat) {
    if (typeof fn !== 'function') {
      throw new TypeError("Failed to execute 'setTimeout': parameter 1 is not of type 'Function'.");
    }
    delay = Number(delay);
    if (!(delay > 0)) delay = 0;
    const id = nextId++;
    timers.set(id, { fn: inContext(fn), args, repeat, delay });
    host.setTimer(id, delay);
    return id;
  }

  internal.fireTimer = function (id) {
    const t = timers.get(id);
    if (!t) return;
    if (t.repeat) host.setTimer(id, t.delay);
    else timers.delete(id);
    t.fn.apply(globalThis, t.args);
  };

  function clear(id) {
    id = Number(id);
    if (timers.delete(id)) host.clearTimer(id);
  }

  internal.defineGlobal('setTimeout', (fn, delay, ...args) => schedule(fn, delay, args, false));
  internal.defineGlobal('setInterval', (fn, delay, ...args) => schedule(fn, delay, args, true));
  internal.defineGlobal('clearTimeout', clear);
  internal.defineGlobal('clearInterval', clear);
  internal.defineGlobal('queueMicrotask', (fn) => {
    if (typeof fn !== 'function') {
      throw new TypeError("Failed to execute 'queueMicrotask': parameter 1 is not of type 'Function'.");
    }
    Promise.resolve().then(() => fn());
  });
});
