// DurableObjectState (a Durable Object's `ctx`): id, storage, waitUntil and blockConcurrencyWhile
// over the cell's Java bridge (CellBridge.java), which holds the instance's input gate.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kId = Symbol('DurableObjectState.id');
  const kStorage = Symbol('DurableObjectState.storage');
  const kBridge = Symbol('DurableObjectState.bridge');
  const kGate = Symbol('DurableObjectState.gate');
  const start = (fn) => { try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); } };

  /**
   * The input gate as the storage and state see it. `block` holds the gate while fn runs and never
   * breaks the object (storage.transaction); `blockConcurrencyWhile` breaks it when fn fails.
   * `settle` is how KV promises settle: at once, in this turn — unless the engine runs the
   * negative control without gates, where they settle in a later turn like a naive async store.
   */
  internal.newCellGate = function (cellBridge, enforced) {
    return {
      block(fn) {
        cellBridge.gateHold();
        return start(fn).finally(() => cellBridge.gateRelease());
      },
      blockConcurrencyWhile(fn) {
        cellBridge.gateHold();
        return start(fn).then((v) => { cellBridge.gateRelease(); return v; },
          (e) => { cellBridge.gateBreak(...internal.errorParts(e)); throw e; });
      },
      settle: enforced ? start : (fn) => {
        let value, error, failed = false;
        try { value = fn(); } catch (e) { error = e; failed = true; }
        return new Promise((resolve, reject) => setTimeout(() => (failed ? reject(error) : resolve(value)), 0));
      },
    };
  };

  class DurableObjectState {
    [kId]; [kStorage]; [kBridge]; [kGate];
    constructor(id, storage, cellBridge, gate) { this[kId] = id; this[kStorage] = storage; this[kBridge] = cellBridge; this[kGate] = gate; }
    get id() { return this[kId]; }
    get storage() { return this[kStorage]; }
    waitUntil(promise) {
      const bridge = this[kBridge];
      const token = bridge.waitUntilBegin();
      Promise.resolve(promise).then(() => bridge.waitUntilEnd(token), (e) => {
        console.error('Uncaught (in promise) from ctx.waitUntil():', e);
        bridge.waitUntilEnd(token);
      });
    }
    blockConcurrencyWhile(fn) {
      if (typeof fn !== 'function') {
        throw new TypeError("Failed to execute 'blockConcurrencyWhile' on 'DurableObjectState': parameter 1 is not of type 'Function'.");
      }
      return this[kGate].blockConcurrencyWhile(fn);
    }
    // workerd: the error cannot be caught (no catch or finally after the call runs), every call in
    // flight fails with it, the turn's unsettled writes are dropped, the next call meets a new instance.
    abort(reason) {
      const message = reason === undefined ? 'Application called abort() to reset Durable Object.' : String(reason);
      this[kBridge].abort(...internal.errorParts(new Error(message)));
    }
    get [Symbol.toStringTag]() { return 'DurableObjectState'; }
  }
  // workerd: ctx.exports (the Worker's own exports as bindings) behind enable_ctx_exports (dispatch.js decides).
  if (internal.compat.ctxExports) {
    Object.defineProperty(DurableObjectState.prototype, 'exports', { get() { return internal.ctxExports(); }, configurable: true });
  }

  // The hibernation API lives in websocket.js, loaded at the first call (lazy.js): a cell that
  // never uses WebSockets does not pay for them.
  for (const name of ['acceptWebSocket', 'getWebSockets', 'getTags', 'setWebSocketAutoResponse', 'getWebSocketAutoResponse',
    'getWebSocketAutoResponseTimestamp', 'setHibernatableWebSocketEventTimeout', 'getHibernatableWebSocketEventTimeout']) {
    const method = { [name](...args) { return internal.webSocketState[name].apply(this, args); } }[name];
    Object.defineProperty(DurableObjectState.prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
  }

  internal.newDurableObjectState = (id, storage, cellBridge, gate) => new DurableObjectState(id, storage, cellBridge, gate);
});
