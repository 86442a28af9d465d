// Durable Object stubs: stub.fetch() goes through InstanceHost.stubs().fetch; any other property is
// an RpcProperty (rpc-client.js): called, it is an RPC method call; awaited, a property read. The
// arguments and the result travel as structured-clone bytes (structured-clone.js), stubs and
// exported objects inside them by reference; an error thrown by the callee comes back as a rejected
// promise of the same class.
//
// On the wire (StubChannel.call) a plain call `stub.m(…)` is method "m" with the arguments array;
// a property read or a call along a longer path is method "\0" + JSON [op, ...path], with the
// arguments array ([] for a read), so a peer of the previous version still serves plain calls.
(function (host, internal) {
  'use strict';
  const RESERVED = new Set(['then', 'constructor', 'toJSON', 'fetch', 'id', 'name', 'connect']);
  const kId = Symbol('DurableObjectStub.id');
  const kMark = internal.rpcMark;
  const kSelf = internal.rpcSelf;

  function stubFetch(id, input, init) {
    const [className, hex, name] = internal.idParts(id);
    return internal.fetchViaHost(input, init, (method, url, lines, kind, body, offset, length, callback) =>
      host.stubFetch(className, hex, name === undefined ? null : name, method, url, lines, kind, body, offset, length, callback));
  }

  /**
   * A fetch the host answers (a Durable Object stub's, a service binding's): `send(method, url,
   * headerLines, bodyKind, body, offset, length, callback)` hands the request over; the callback
   * gets the response (status < 0: the call failed, with the callee's error class when it threw).
   */
  internal.fetchViaHost = function (input, init, send) {
    let request;
    try { request = new Request(input, init); } catch (e) { return Promise.reject(e); }
    let body;
    try { body = internal.requestBody(request).toHost(); } catch (e) { return Promise.reject(e); }
    return new Promise((resolve, reject) => {
      send(request.method, request.url, internal.headersToLines(request.headers), body[0], body[1], body[2], body[3],
        (status, statusText, headerLines, bodyKind, value) => {
          if (status < 0) { reject(internal.rpcFailure(statusText, headerLines, bodyKind, true)); return; }
          // bodyKind 4: a 101 whose value is the WebSocket end (websocket.js).
          resolve(internal.responseFromHost(status, statusText, headerLines, internal.hostBody(bodyKind, value), request.url, false,
            bodyKind === 4 ? value : null));
        });
    });
  };

  /** rpc-client.js's send for a Durable Object base: `msg` is the serialized arguments array, whose minted stubs `releaseKeys` drops if the call fails. */
  internal.doStubOp = function (base, op, path, msg, releaseKeys) {
    const [className, hex, name] = internal.idParts(base[kId]);
    const method = op === 'call' && path.length === 1 ? path[0] : '\0' + JSON.stringify([op, ...path]);
    return new Promise((resolve, reject) => {
      host.stubCall(className, hex, name === undefined ? null : name, method, msg.buffer, msg.byteOffset, msg.byteLength,
        (kind, value, retryable, jsName) => {
          if (kind < 0) { releaseKeys(msg); reject(internal.rpcFailure(value, retryable, jsName, false)); return; }
          internal.rpcSettle(value, resolve, reject);
        });
    });
  };

  /** A stub for `id`; `tag` is its Symbol.toStringTag ("DurableObject" from a namespace, "Fetcher" when received over RPC). */
  internal.newStub = function (id, tag = 'DurableObject') {
    const target = {
      id,
      name: id.name,
      fetch: (input, init) => stubFetch(id, input, init),
      connect: () => { throw internal.unsupported('Durable Object stub connect()'); },
      [kId]: id,
    };
    let own;
    const stub = new Proxy(target, {
      get(t, prop) {
        if (own !== undefined && own.has(prop)) return own.get(prop);
        if (prop === kMark) return 'dostub';
        if (prop === kSelf) return t; // the base rpc-client.js sends along (a stub found inside a result)
        if (prop === Symbol.toStringTag) return tag;
        if (typeof prop === 'symbol' || prop === 'then') return undefined;
        if (RESERVED.has(prop)) return t[prop];
        return internal.rpcProperty(t, [prop]);
      },
      has(t, prop) { return typeof prop === 'string' && prop !== 'then'; },
      // As workerd: a property assigned to a stub stays on this side.
      set(t, prop, value) { (own || (own = new Map())).set(prop, value); return true; },
    });
    return stub;
  };
  /** The id of a Durable Object stub (for its structured-clone tag). */
  internal.doStubId = (stub) => stub[kSelf][kId];

  /** Callee side: the Durable Object's method (or property) named by the wire `method`, run on `target`. */
  internal.runRpc = function (target, method, argsBytes) {
    let op = 'call';
    let path = [method];
    if (method.charCodeAt(0) === 0) {
      [op, ...path] = JSON.parse(method.slice(1));
    }
    return internal.rpcRun(target, true, op, path, argsBytes);
  };
});
