// The caller's side of JS RPC, as workerd offers it: stubs (RpcStub), the promise a call returns
// (RpcPromise) and property references (RpcProperty). A stub names an object another context
// exported by reference (an RpcTarget or a function: rpc-server.js); calling it, reading a property
// of it or awaiting either goes through host.rpc() (RpcBridge.java) to where the object lives.
// Durable Object stubs (durable-object-stubs.js) answer with the same RpcPromise / RpcProperty.
//
// Pipelining: `stub.a().b()` and `stub.a().prop` work without awaiting a(): the RpcPromise of a()
// takes calls and property reads and sends each once a() has answered (one round trip per call).
// Arguments are serialized when the call is made, as workerd does, so a stub passed to a pipelined
// call is moved at once.
(function (host, internal) {
  'use strict';
  const DISPOSED = 'RPC stub used after being disposed.';
  const bridge = host.rpc();
  // Every proxy here answers kMark ('stub' | 'promise' | 'property'; structured-clone.js reads it)
  // and kSelf (its target, where the slots are): symbol reads rather than tables, as one call makes two proxies.
  const kMark = internal.rpcMark;
  const kSelf = internal.rpcSelf = Symbol('rpc.self');
  // A base that sends its own calls (a service binding's stub, service-bindings.js): base[kSendVia](op, path, msg, releaseKeys).
  const kSendVia = internal.rpcSendVia = Symbol('rpc.sendVia');
  const markOf = (v) => ((typeof v === 'object' || typeof v === 'function') && v !== null ? v[kMark] : undefined);

  // The classes `cloudflare:workers` exports when the bundle imports it (instanceof works against
  // them); a bundle that never imports it gets the same shapes from private classes.
  const illegal = function () { throw new TypeError('Illegal constructor'); };
  const RpcStub = internal.RpcStub || function RpcStub(target) { return internal.rpcLocalStub(target); };
  const RpcPromise = internal.RpcPromise || illegal;
  const RpcProperty = internal.RpcProperty || illegal;

  // Internal slots on the proxies' targets (module-level Symbols: README, "Internal slots").
  const kKey = Symbol('RpcStub.key');
  const kDisposed = Symbol('RpcStub.disposed');
  const kBase = Symbol('RpcProperty.base');
  const kPath = Symbol('RpcProperty.path');
  const kPromise = Symbol('RpcPromise.promise');
  const kOwn = Symbol('RpcStub.own'); // properties user code set on a stub or property: kept locally, as on workerd

  function define(proto, tag, members) {
    Object.defineProperty(proto, Symbol.toStringTag, { value: tag, configurable: true });
    for (const k of Reflect.ownKeys(members)) {
      Object.defineProperty(proto, k, { value: members[k], writable: true, configurable: true });
    }
  }
  define(RpcStub.prototype, 'JsRpcStub', {
    dup() {
      const t = stubTarget(this);
      const key = t[kDisposed] ? null : bridge.dup(t[kKey]);
      if (key === null) throw new Error(DISPOSED);
      return newStub(key);
    },
    [Symbol.dispose]() {
      const t = stubTarget(this);
      if (t[kDisposed]) return;
      t[kDisposed] = true;
      collected.unregister(t);
      bridge.release(t[kKey]);
    },
  });
  define(RpcPromise.prototype, 'JsRpcPromise', {
    [Symbol.dispose]() {
      const t = markOf(this) === 'promise' ? this[kSelf] : undefined;
      if (t !== undefined) t[kPromise].then(disposeValue, () => {});
    },
  });
  define(RpcProperty.prototype, 'JsRpcProperty', {});

  function stubTarget(v) {
    if (markOf(v) !== 'stub') throw new TypeError('Illegal invocation');
    return v[kSelf];
  }

  // A callable target (an arrow function: no own `prototype`) whose prototype is the class's,
  // so `typeof` is "function" and `instanceof` holds without a trap.
  function callable(proto) {
    const fn = () => {};
    Object.setPrototypeOf(fn, proto);
    return fn;
  }

  // ---- stubs ----

  // Traps every proxy here shares: a property user code assigned stays local; `in` is true for
  // every name (any name may exist remotely).
  function setOwn(t, prop, value) {
    (t[kOwn] || (t[kOwn] = new Map())).set(prop, value);
    return true;
  }
  const own = (t, prop) => t[kOwn] !== undefined && t[kOwn].has(prop);
  const hasAny = (proto) => (t, prop) => typeof prop === 'string' || prop in proto;

  const STUB = {
    get(t, prop, receiver) {
      if (prop === kSelf) return t;
      if (prop === kMark) return 'stub';
      if (own(t, prop)) return t[kOwn].get(prop);
      if (prop in RpcStub.prototype) return Reflect.get(RpcStub.prototype, prop, receiver);
      if (typeof prop === 'symbol' || prop === 'then') return undefined;
      return newPropertyOn(t, [prop]);
    },
    apply(t, self, args) { return remoteOp(t, 'call', [], args); },
    set(t, prop, value) { return setOwn(t, prop, value); },
    has: hasAny(RpcStub.prototype),
  };
  // A stub the garbage collector found unreachable and nobody disposed is released, as workerd
  // releases a collected stub: a long-lived holder (a Durable Object) that drops stubs without
  // disposing them would otherwise pin each target until it is evicted. The key is the held value
  // (the stub itself must not be); the target is the token, unregistered on dispose and transfer.
  const collected = new FinalizationRegistry((key) => bridge.release(key));
  function newStub(key) {
    const t = callable(RpcStub.prototype);
    t[kKey] = key;
    t[kDisposed] = false;
    const stub = new Proxy(t, STUB);
    collected.register(stub, key, t);
    return stub;
  }
  /** The stub for a key this context deserialized; `argument`: it came with a call and ends with it. */
  internal.rpcStub = function (key, argument) {
    return newStub(bridge.adopt(key, argument));
  };

  /**
   * Moves a stub into a message: a new key for the receiver; this stub is disposed (workerd moves
   * stubs passed on). A disposed stub travels as a broken one (key ""), whose calls fail as its own would.
   */
  internal.rpcTransfer = function (stub) {
    const t = stub[kSelf];
    const key = t[kDisposed] ? null : bridge.transfer(t[kKey]);
    t[kDisposed] = true;
    collected.unregister(t);
    return key === null ? '' : key;
  };

  /** `new RpcStub(target)`: a stub for an object of this context, which calls go through like any other. */
  internal.rpcLocalStub = function (target) {
    if ((typeof target !== 'object' && typeof target !== 'function') || target === null) {
      throw new TypeError('RpcStub constructor expects an RpcTarget, a function or an object.');
    }
    if (markOf(target) === 'stub') return target.dup();
    return internal.rpcStub(internal.rpcExport(target), false);
  };

  // ---- calls ----

  // A base is where a path starts: a stub's target (kKey), a Durable Object id (durable-object-stubs.js),
  // or a pending result (an RpcPromise's target, kPromise).
  function remoteOp(base, op, path, args) {
    let msg;
    try { msg = internal.serialize(args, 'rpc'); } catch (e) { return newPromise(Promise.reject(e)); }
    return newPromise(sendOp(base, op, path, msg));
  }

  function sendOp(base, op, path, msg) {
    if (base[kPromise] !== undefined) {
      return base[kPromise].then((v) => opOnValue(v, op, path, msg), (e) => { releaseKeys(msg); throw e; });
    }
    if (base[kKey] !== undefined) {
      if (base[kDisposed]) { releaseKeys(msg); return Promise.reject(new Error(DISPOSED)); }
      return new Promise((resolve, reject) => {
        bridge.call(base[kKey], op, JSON.stringify(path), msg.buffer, msg.byteOffset, msg.byteLength,
          (kind, value, retryable, jsName) => {
            if (kind < 0) { releaseKeys(msg); reject(internal.rpcFailure(value, retryable, jsName, false)); return; }
            internal.rpcSettle(value, resolve, reject);
          });
      });
    }
    if (base[kSendVia] !== undefined) return base[kSendVia](op, path, msg, releaseKeys);
    return internal.doStubOp(base, op, path, msg, releaseKeys);
  }

  // A pipelined call or read reached the value its base resolved to: follow the path through plain
  // data to the first stub, and send the rest of the path there.
  function opOnValue(v, op, path, msg) {
    for (let i = 0; ; i++) {
      const mark = markOf(v);
      if (mark === 'stub' || mark === 'dostub' || mark === 'service') return sendOp(v[kSelf], op, path.slice(i), msg);
      if (mark === 'promise' || mark === 'property') return Promise.resolve(v).then((x) => opOnValue(x, op, path.slice(i), msg));
      if (i === path.length) break;
      if ((typeof v !== 'object' && typeof v !== 'function') || v === null || !Object.prototype.hasOwnProperty.call(v, path[i])) {
        releaseKeys(msg);
        throw new TypeError('The RPC receiver does not implement the method "' + path[i] + '".');
      }
      v = v[path[i]];
    }
    if (op === 'get') { releaseKeys(msg); return v; }
    const args = internal.deserialize(msg, 'argument');
    if (typeof v !== 'function') throw new TypeError('"' + path[path.length - 1] + '" is not a function.');
    return v(...args);
  }

  // The stubs a message minted, when the call failed (a callee that adopted one releases it too: idempotent).
  function releaseKeys(msg) {
    if (msg.rpcKeys !== undefined) for (const k of msg.rpcKeys) bridge.release(k);
  }

  /** A call through a property path: `stub.a.b(…)`, `promise.a(…)`, a Durable Object stub's `stub.m(…)`. */
  function callOn(base, path, args) { return remoteOp(base, 'call', path, args); }
  function getOn(base, path) {
    const msg = internal.serialize([], 'rpc');
    return sendOp(base, 'get', path, msg);
  }

  // ---- RpcProperty: `stub.x` (callable, thenable, and a base for `stub.x.y`) ----

  const PROPERTY = {
    get(t, prop, receiver) {
      if (prop === 'then' || prop === 'catch' || prop === 'finally') {
        const p = getOn(t[kBase], t[kPath]);
        return p[prop].bind(p);
      }
      if (prop === kSelf) return t;
      if (prop === kMark) return 'property';
      if (own(t, prop)) return t[kOwn].get(prop);
      if (prop in RpcProperty.prototype) return Reflect.get(RpcProperty.prototype, prop, receiver);
      if (typeof prop === 'symbol') return undefined;
      return newPropertyOn(t[kBase], [...t[kPath], prop]);
    },
    apply(t, self, args) { return callOn(t[kBase], t[kPath], args); },
    set(t, prop, value) { return setOwn(t, prop, value); },
    has: hasAny(RpcProperty.prototype),
  };
  function newPropertyOn(base, path) {
    const t = callable(RpcProperty.prototype);
    t[kBase] = base;
    t[kPath] = path;
    return new Proxy(t, PROPERTY);
  }
  internal.rpcProperty = newPropertyOn;

  // ---- RpcPromise: what a call returns ----

  const PROMISE = {
    get(t, prop, receiver) {
      const p = t[kPromise];
      if (prop === 'then' || prop === 'catch' || prop === 'finally') return p[prop].bind(p);
      if (prop === kSelf) return t;
      if (prop === kMark) return 'promise';
      if (own(t, prop)) return t[kOwn].get(prop);
      if (prop in RpcPromise.prototype) return Reflect.get(RpcPromise.prototype, prop, receiver);
      if (typeof prop === 'symbol') return undefined;
      return newPropertyOn(t, [prop]);
    },
    apply(t, self, args) { return callOn(t, [], args); },
    set(t, prop, value) { return setOwn(t, prop, value); },
    has: hasAny(RpcPromise.prototype),
  };
  function newPromise(promise) {
    const t = callable(RpcPromise.prototype);
    t[kPromise] = promise;
    return new Proxy(t, PROMISE);
  }

  // ---- answers ----

  // Error classes an RPC call keeps (workerd); any other error arrives as Error("<name>: <message>").
  const RPC_ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError };
  internal.rpcErrorClasses = RPC_ERRORS;

  function errorFromEnvelope(env) {
    const e = env.dom ? new DOMException(env.message, env.name) : new (RPC_ERRORS[env.name] || Error)(env.message);
    if (typeof env.stack === 'string') Object.defineProperty(e, 'stack', { value: env.stack, writable: true, configurable: true });
    e.remote = true;
    return e;
  }

  /** Settles a call with its result envelope (structured-clone bytes of { ok, value } or { ok: false, … }). */
  internal.rpcSettle = function (buffer, resolve, reject) {
    let envelope;
    try { envelope = internal.deserialize(new Uint8Array(new ArrayBuffer(buffer)), 'result'); } catch (e) { reject(e); return; }
    if (!envelope.ok) { reject(errorFromEnvelope(envelope)); return; }
    const v = envelope.value;
    // As workerd: an object result has a disposer for the stubs inside it (`using r = await stub.f()`).
    if (typeof v === 'object' && v !== null && markOf(v) === undefined && !Object.prototype.hasOwnProperty.call(v, Symbol.dispose)) {
      Object.defineProperty(v, Symbol.dispose, { value: function () { disposeValue(v); }, writable: true, configurable: true });
    }
    resolve(v);
  };

  // A call that failed: the callee's event failed with a JavaScript error (jsName is its class: the
  // caller gets that class, as from workerd; `remote` for a fetch handler that threw — an RPC
  // method's throw travels in the result instead, so a failed RPC event means the object itself
  // broke, which workerd does not mark remote), or the host could not deliver it.
  internal.rpcFailure = function (message, retryable, jsName, remote) {
    if (jsName !== null && jsName !== undefined) {
      const e = Object.prototype.hasOwnProperty.call(RPC_ERRORS, jsName) ? new RPC_ERRORS[jsName](message)
        : new Error(jsName === 'Error' ? message : jsName + ': ' + message);
      if (remote) e.remote = true;
      return e;
    }
    const e = new Error(message);
    e.retryable = !!retryable;
    return e;
  };

  /** Disposes every stub inside a value (a result being disposed). */
  function disposeValue(v, seen = new Set()) {
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) return;
    seen.add(v);
    const mark = markOf(v);
    if (mark === 'stub') { RpcStub.prototype[Symbol.dispose].call(v); return; }
    if (mark !== undefined) return;
    if (v instanceof Map) { for (const [k, x] of v) { disposeValue(k, seen); disposeValue(x, seen); } return; }
    if (v instanceof Set || Array.isArray(v)) { for (const x of v) disposeValue(x, seen); return; }
    if (Object.getPrototypeOf(v) === Object.prototype) for (const k of Object.keys(v)) disposeValue(v[k], seen);
  }
});
