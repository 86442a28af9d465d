// Service bindings to this Worker itself (`services` with the Worker's own name) and ctx.exports,
// as workerd offers them. A fleet runs one Worker, so every call is served in process: the stub
// (a `Fetcher`) hands `fetch()` and each RPC call to host.services() (ServiceCalls.java), which
// runs it as a NEW event of this very context — a new request context with its own ctx — and
// answers the caller's promise in a later turn (dispatch.js: dispatchServiceFetch,
// dispatchServiceCall; rpc-server.js: rpcRunEntrypoint). Arguments and results travel as RPC
// messages (structured-clone.js), so stubs, functions and RpcTargets go by reference exactly as
// with Durable Object stubs (rpc-client.js: the RpcProperty / RpcPromise of `env.SELF.m`).
(function (host, internal) {
  'use strict';
  // The RPC files (structured-clone.js, rpc-client.js) load when a stub is first used, not when
  // env is built: internal.rpcMark, rpcSelf and rpcSendVia are read only then.
  // Names the stub keeps for itself; any other string is an RPC method or property.
  const OWN = new Set(['fetch', 'connect', 'toJSON']);

  // What structured-clone.js writes for a stub passed over RPC: [entrypoint, propsJson, loopback].
  const kParts = internal.serviceParts = Symbol('service.parts');
  const illegalConstructor = function Fetcher() { throw new TypeError('Illegal constructor'); };
  const isSubclass = (v, base) => typeof v === 'function' && base !== undefined && v.prototype instanceof base;

  /** What an export is, for the load check and ctx.exports. */
  internal.exportKind = function (v) {
    if (isSubclass(v, internal.WorkerEntrypoint)) return 'entrypoint';
    if (isSubclass(v, internal.DurableObject)) return 'durable-object';
    if (typeof v === 'function') return 'function';
    if (typeof v === 'object' && v !== null) return 'object';
    return typeof v;
  };

  /**
   * The stub of a service binding to this Worker: `entrypoint` null for the default export,
   * `props` what the callee reads as ctx.props (null: none).
   */
  // `loopback`: a ctx.exports entry, which workerd makes callable — `ctx.exports.Api({ props })` is
  // the same binding with other props — and tags LoopbackServiceStub; an env binding is a Fetcher.
  internal.newServiceStub = function (entrypoint, props, loopback) {
    const propsJson = props === null || props === undefined ? null : JSON.stringify(props);
    // an arrow function has no own `prototype`, so the Proxy's traps keep their invariants
    const target = loopback ? Object.assign(() => undefined, {}) : {};
    // not enumerable: a Fetcher's methods are its prototype's on workerd, so it has no own keys
    Object.defineProperty(target, 'fetch', { writable: true, configurable: true, value: function fetch(input, init) {
      return internal.fetchViaHost(input, init, (method, url, lines, kind, body, offset, length, callback) =>
        host.services().fetch(entrypoint, propsJson, method, url, lines, kind, body, offset, length, callback));
    } });
    Object.defineProperty(target, 'connect', { writable: true, configurable: true,
      value: function connect() { throw internal.unsupported('connect() on a service binding'); } });
    const tag = loopback ? 'LoopbackServiceStub' : 'Fetcher';
    // rpc-client.js sends a call or read whose path starts at this stub through here.
    const sendVia = (op, path, msg, releaseKeys) => new Promise((resolve, reject) => {
      host.services().call(entrypoint, propsJson, op, JSON.stringify(path), msg.buffer, msg.byteOffset, msg.byteLength,
        (kind, value, retryable, jsName) => {
          if (kind < 0) { releaseKeys(msg); reject(internal.rpcFailure(value, retryable, jsName, false)); return; }
          internal.rpcSettle(value, resolve, reject);
        });
    });
    let own;
    return new Proxy(target, {
      get(t, prop) {
        if (own !== undefined && own.has(prop)) return own.get(prop);
        if (typeof prop === 'symbol') {
          if (prop === Symbol.toStringTag) return tag;
          if (prop === internal.rpcMark) return 'service';
          if (prop === internal.rpcSelf) return t;
          if (prop === kParts) return [entrypoint, propsJson, loopback === true];
          return undefined;
        }
        if (prop === 'then') return undefined;
        if (OWN.has(prop)) return t[prop];
        // as on workerd's Fetcher, a JS object: Object.prototype's members answer here
        // (String(env.SELF) is "[object Fetcher]"), and its constructor cannot be called
        if (prop === 'constructor') return illegalConstructor;
        if (Object.prototype.hasOwnProperty.call(Object.prototype, prop)) return Object.prototype[prop];
        if (t[internal.rpcSendVia] === undefined) t[internal.rpcSendVia] = sendVia;
        return internal.rpcProperty(t, [prop]);
      },
      has(t, prop) { return typeof prop === 'string' && prop !== 'then'; },
      apply(t, self, args) {
        const o = args[0];
        return internal.newServiceStub(entrypoint, o !== null && typeof o === 'object' && o.props !== undefined ? o.props : props, true);
      },
      // As workerd: a property assigned to a stub stays on this side.
      set(t, prop, value) { (own || (own = new Map())).set(prop, value); return true; },
    });
  };

  // A ctx.exports namespace: callable and tagged as workerd's LoopbackDurableObjectNamespace; its
  // members are the namespace's. Calling it (workerd: the namespace with other props) is refused by name.
  function loopbackNamespace(ns, name) {
    const target = () => undefined;
    return new Proxy(target, {
      get(t, prop) {
        if (prop === Symbol.toStringTag) return 'LoopbackDurableObjectNamespace';
        const v = ns[prop];
        return typeof v === 'function' ? v.bind(ns) : v;
      },
      has(t, prop) { return prop in ns; },
      apply() { throw internal.unsupported('ctx.exports.' + name + '({ props }) (a Durable Object namespace with props)'); },
    });
  }

  // An exported Durable Object class no durable_objects binding names: on workerd a class without
  // storage (LoopbackDurableObjectClass, for facets), not a namespace. cellgate has no facets, so it
  // is there with its tag and refuses to be called, by name.
  function loopbackClass(name) {
    const cls = () => { throw internal.unsupported('ctx.exports.' + name + ' (a Durable Object class without storage, for facets)'); };
    Object.defineProperty(cls, Symbol.toStringTag, { value: 'LoopbackDurableObjectClass' });
    return cls;
  }

  /**
   * ctx.exports, as workerd's: a service binding for each exported WorkerEntrypoint class and
   * plain-object export, a Durable Object namespace for each exported class a durable_objects
   * binding names, and a storage-less Durable Object class for each other exported DurableObject.
   */
  internal.newCtxExports = function (exports, scriptName, boundClasses) {
    const out = {};
    for (const name of Object.keys(exports)) {
      const kind = internal.exportKind(exports[name]);
      // workerd: every WorkerEntrypoint class and every plain-object export (default or named) is an entrypoint
      if (kind === 'entrypoint' || kind === 'object') {
        out[name] = internal.newServiceStub(name === 'default' ? null : name, null, true);
      } else if (name !== 'default' && (kind === 'durable-object' || kind === 'function') && boundClasses.includes(name)) {
        out[name] = loopbackNamespace(internal.newNamespace(scriptName, name), name);
      } else if (name !== 'default' && kind === 'durable-object') {
        out[name] = loopbackClass(name);
      }
    }
    return Object.freeze(out);
  };
});
