// Stubs: stub.fetch() goes through InstanceHost.stubs().fetch; any other property is an RPC
// method whose arguments and result travel as structured-clone bytes (structured-clone.js).
// An error thrown by the callee comes back as a rejected promise of the same class.
(function (host, internal) {
  'use strict';
  const RESERVED = new Set(['then', 'constructor', 'toJSON', 'fetch', 'id', 'name', 'connect']);
  // Handlers the platform calls; workerd refuses them over RPC.
  const HANDLERS = new Set(['alarm', 'webSocketMessage', 'webSocketClose', 'webSocketError']);
  // Error classes an RPC call keeps (workerd); any other error arrives as Error("<name>: <message>").
  const RPC_ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError };

  // What travels for a thrown value: class, message and stack only (workerd drops cause and own
  // properties); DOMException keeps its name.
  function errorEnvelope(e) {
    if (e instanceof DOMException) return { ok: false, dom: true, name: e.name, message: e.message, stack: e.stack };
    if (e instanceof Error) {
      const known = Object.prototype.hasOwnProperty.call(RPC_ERRORS, e.name) && e instanceof RPC_ERRORS[e.name];
      return known ? { ok: false, name: e.name, message: String(e.message), stack: e.stack }
        : { ok: false, name: 'Error', message: String(e.name) + ': ' + String(e.message), stack: e.stack };
    }
    return { ok: false, name: 'Error', message: String(e), stack: undefined };
  }
  function errorFromEnvelope(env) {
    const e = env.dom ? new DOMException(env.message, env.name) : new (RPC_ERRORS[env.name] || Error)(env.message);
    if (typeof env.stack === 'string') Object.defineProperty(e, 'stack', { value: env.stack, writable: true, configurable: true });
    e.remote = true;
    return e;
  }

  // A call that failed: the Durable Object's event failed with a JavaScript error (jsName is its
  // class: the caller gets that class, as from workerd; `remote` for a fetch handler that threw —
  // an RPC method's throw travels in the result instead, so a failed RPC event means the object
  // itself broke, which workerd does not mark remote), or the host could not deliver it.
  function callFailure(message, retryable, jsName, remote) {
    if (jsName !== null && jsName !== undefined) {
      const e = Object.prototype.hasOwnProperty.call(RPC_ERRORS, jsName) ? new RPC_ERRORS[jsName](message)
        : new Error(jsName === 'Error' ? message : jsName + ': ' + message);
      if (remote) e.remote = true;
      return e;
    }
    const e = new Error(message);
    e.retryable = !!retryable;
    return e;
  }

  function stubFetch(id, input, init) {
    let request;
    try { request = new Request(input, init); } catch (e) { return Promise.reject(e); }
    const [className, hex, name] = internal.idParts(id);
    let body;
    try { body = internal.requestBody(request).toHost(); } catch (e) { return Promise.reject(e); }
    return new Promise((resolve, reject) => {
      host.stubFetch(className, hex, name === undefined ? null : name, request.method, request.url,
        internal.headersToLines(request.headers), body[0], body[1], body[2], body[3],
        (status, statusText, headerLines, bodyKind, value) => {
          if (status < 0) { reject(callFailure(statusText, headerLines, bodyKind, true)); return; }
          // bodyKind 4: a 101 whose value is the WebSocket end (websocket.js).
          resolve(internal.responseFromHost(status, statusText, headerLines, internal.hostBody(bodyKind, value), request.url, false,
            bodyKind === 4 ? value : null));
        });
    });
  }

  function stubCall(id, method, args) {
    let bytes;
    try { bytes = internal.serialize(args); } catch (e) { return Promise.reject(e); }
    const [className, hex, name] = internal.idParts(id);
    return new Promise((resolve, reject) => {
      host.stubCall(className, hex, name === undefined ? null : name, method, bytes.buffer, bytes.byteOffset, bytes.byteLength,
        (kind, value, retryable, jsName) => {
          if (kind < 0) { reject(callFailure(value, retryable, jsName, false)); return; }
          let envelope;
          try { envelope = internal.deserialize(new Uint8Array(new ArrayBuffer(value))); } catch (e) { reject(e); return; }
          if (envelope.ok) resolve(envelope.value); else reject(errorFromEnvelope(envelope));
        });
    });
  }

  internal.newStub = function (id) {
    const target = {
      id,
      name: id.name,
      fetch: (input, init) => stubFetch(id, input, init),
      connect: () => { throw internal.unsupported('Durable Object stub connect()'); },
    };
    return new Proxy(target, {
      get(t, prop) {
        if (typeof prop === 'symbol' || prop === 'then') return undefined;
        if (RESERVED.has(prop)) return t[prop];
        return (...args) => stubCall(id, prop, args);
      },
      has(t, prop) { return typeof prop === 'string' && prop !== 'then'; },
      set() { throw new TypeError('A Durable Object stub is read-only.'); },
    });
  };

  // Callee side: run the method and encode the outcome as { ok, value } or { ok: false, error }.
  // A method the class (or a base class) defines; own instance fields and Object.prototype's do not count.
  function rpcMethod(target, method) {
    if (HANDLERS.has(method)) throw new TypeError("'" + method + "' is a reserved method and cannot be called over RPC.");
    if (!RESERVED.has(method) && !method.startsWith('#')) {
      for (let p = Object.getPrototypeOf(target); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        const d = Object.getOwnPropertyDescriptor(p, method);
        if (d === undefined) continue;
        if (typeof d.value === 'function') return d.value;
        throw new TypeError('"' + method + '" is not a function.');
      }
    }
    throw new TypeError('The RPC receiver does not implement the method "' + method + '".');
  }

  internal.runRpc = async function (target, method, argsBytes) {
    try {
      const args = internal.deserialize(argsBytes);
      const value = await rpcMethod(target, method).apply(target, args);
      return internal.serialize({ ok: true, value });
    } catch (error) {
      return internal.serialize(errorEnvelope(error));
    }
  };
});
