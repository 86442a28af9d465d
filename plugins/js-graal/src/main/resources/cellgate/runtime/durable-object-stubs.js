// Stubs: stub.fetch() goes through InstanceHost.stubs().fetch; any other property is an RPC
// method whose arguments and result travel as structured-clone bytes (structured-clone.js).
// An error thrown by the callee comes back as a rejected promise of the same class.
(function (host, internal) {
  'use strict';
  const RESERVED = new Set(['then', 'constructor', 'toJSON', 'fetch', 'id', 'name', 'connect']);

  function callFailure(message, retryable) {
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
          if (status < 0) { reject(callFailure(statusText, headerLines)); return; }
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
        (kind, value, retryable) => {
          if (kind < 0) { reject(callFailure(value, retryable)); return; }
          let envelope;
          try { envelope = internal.deserialize(new Uint8Array(new ArrayBuffer(value))); } catch (e) { reject(e); return; }
          if (envelope.ok) resolve(envelope.value); else reject(envelope.error);
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
  internal.runRpc = async function (target, method, argsBytes) {
    try {
      const args = internal.deserialize(argsBytes);
      if (RESERVED.has(method) || method.startsWith('#') || typeof target[method] !== 'function' || method in Object.prototype) {
        throw new TypeError('The RPC receiver does not implement the method "' + method + '".');
      }
      const value = await target[method](...args);
      return internal.serialize({ ok: true, value });
    } catch (error) {
      return internal.serialize({ ok: false, error });
    }
  };
});
