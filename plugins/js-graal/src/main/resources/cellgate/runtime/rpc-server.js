// The callee's side of JS RPC, as workerd offers it: objects this context passes by reference
// (RpcTarget instances and functions) are kept here by handle while stubs for them exist elsewhere
// (RpcExports.java counts the stubs); a call on a stub runs here as an event of this instance
// (RpcBridge.deliverCall → dispatch.js → rpcRunExport), and when the last stub is gone the object's
// [Symbol.dispose]() runs and the handle is forgotten. A Durable Object's own methods are served by
// the same rules (rpcRun), reached through its namespace stubs (durable-object-stubs.js).
(function (host, internal) {
  'use strict';
  const bridge = host.rpc();
  const handles = new Map();
  let nextHandle = 0;

  // Handlers the platform calls; workerd refuses them over RPC.
  const HANDLERS = new Set(['alarm', 'webSocketMessage', 'webSocketClose', 'webSocketError']);
  // Names a Durable Object stub keeps for itself (durable-object-stubs.js), never remote methods.
  const RESERVED = new Set(['then', 'constructor', 'toJSON', 'fetch', 'id', 'name', 'connect']);
  // What workerd reserves on a Worker's entrypoint (a service binding's callee): refused by name.
  const ENTRYPOINT_RESERVED = new Set(['fetch', 'connect', 'alarm', 'webSocketMessage', 'webSocketClose', 'webSocketError', 'dup',
    'constructor']);
  const reserved = (name) => new TypeError("'" + name + "' is a reserved method and cannot be called over RPC.");

  /** Exports `value` (an RpcTarget or a function) and returns the key of its first stub, for the message. */
  internal.rpcExport = function (value) {
    const handle = ++nextHandle;
    const key = bridge.export(handle);
    if (key === null) throw new Error('The execution context which hosts this callback is no longer running.');
    handles.set(handle, value);
    return key;
  };

  function notImplemented(name) {
    return new TypeError('The RPC receiver does not implement the method "' + name + '".');
  }

  // A member of an RPC receiver: only what its class (or a base class) defines — methods and
  // getters; own instance properties and Object.prototype's members are not exposed (workerd).
  // isObject: true for a Durable Object, 'entrypoint' for a WorkerEntrypoint, else false.
  function member(receiver, name, isObject) {
    if (isObject === 'entrypoint' && ENTRYPOINT_RESERVED.has(name)) throw reserved(name);
    if (isObject === true && HANDLERS.has(name)) throw reserved(name);
    if (typeof name === 'string' && !(isObject === true && RESERVED.has(name)) && !name.startsWith('#')) {
      for (let p = Object.getPrototypeOf(receiver); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        const d = Object.getOwnPropertyDescriptor(p, name);
        if (d !== undefined) return d;
      }
    }
    throw notImplemented(name);
  }

  const isReceiver = (v) => internal.RpcTarget !== undefined && v instanceof internal.RpcTarget;

  // Reads `path` from `root` (the exported object or the Durable Object) and calls or returns it.
  // A name read from the Durable Object or an RpcTarget follows the receiver rules; from anything
  // else (a function, an object given to `new RpcStub()`, plain data on the way) it must be an own
  // property.
  function apply(root, isObject, op, path, args) {
    let receiver;
    let value = root;
    for (let i = 0; i < path.length; i++) {
      const guarded = (i === 0 && isObject) || isReceiver(value);
      receiver = value;
      if (guarded) {
        const d = member(value, path[i], i === 0 && isObject);
        const last = i === path.length - 1;
        if (last && op === 'call') {
          if (typeof d.value !== 'function') throw new TypeError('"' + path[i] + '" is not a function.');
          return d.value.apply(receiver, args);
        }
        value = d.get !== undefined ? d.get.call(receiver) : d.value;
      } else {
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || !Object.prototype.hasOwnProperty.call(value, path[i])) {
          throw notImplemented(path[i]);
        }
        value = value[path[i]];
      }
    }
    if (op === 'get') return value;
    if (typeof value !== 'function') throw new TypeError('"' + (path.length ? path[path.length - 1] : 'stub') + '" is not a function.');
    return value.apply(receiver, args);
  }

  // What travels for a thrown value: class, message and stack only (workerd drops cause and own
  // properties); DOMException keeps its name.
  function errorEnvelope(e) {
    if (e instanceof DOMException) return { ok: false, dom: true, name: e.name, message: e.message, stack: e.stack };
    if (e instanceof Error) {
      const classes = internal.rpcErrorClasses;
      const known = Object.prototype.hasOwnProperty.call(classes, e.name) && e instanceof classes[e.name];
      return known ? { ok: false, name: e.name, message: String(e.message), stack: e.stack }
        : { ok: false, name: 'Error', message: String(e.name) + ': ' + String(e.message), stack: e.stack };
    }
    return { ok: false, name: 'Error', message: String(e), stack: undefined };
  }

  /** Runs `op` along `path` on `root` with the serialized `argsBytes`; answers the result envelope's bytes. */
  internal.rpcRun = (root, isObject, op, path, argsBytes) => envelope(argsBytes, (args) => apply(root, isObject, op, path, args));

  // The result envelope of `run(args)`: its value, or what it threw.
  async function envelope(argsBytes, run) {
    try {
      const args = internal.deserialize(argsBytes, 'argument');
      const value = await run(Array.isArray(args) ? args : []);
      return internal.serialize({ ok: true, value }, 'rpc');
    } catch (error) {
      return internal.serialize(errorEnvelope(error), 'rpc');
    }
  }

  /**
   * A service binding's call on this Worker's export `handler` (dispatch.js), as workerd serves it:
   * a WorkerEntrypoint class is constructed with (ctx, env) for the call and answers by its class's
   * members; a plain object's own functions are called as (arg, env, ctx) with exactly one argument.
   */
  internal.rpcRunEntrypoint = (handler, env, ctx, op, path, argsBytes) => envelope(argsBytes, (args) => {
    const kind = internal.exportKind(handler);
    if (kind === 'entrypoint') return apply(new handler(ctx, env), 'entrypoint', op, path, args);
    if (kind === 'object') return callHandlerFunction(handler, env, ctx, op, path, args);
    throw new TypeError(kind === 'durable-object' || kind === 'function'
      ? 'The RPC receiver does not implement the method "' + path[0] + '".' : 'The receiving Worker does not export an entrypoint.');
  });

  // workerd's "functional syntax": export default { m(arg, env, ctx) { … } }.
  function callHandlerFunction(handler, env, ctx, op, path, args) {
    if (path.length !== 1 || op !== 'call') return apply(handler, false, op, path, args);
    const name = path[0];
    if (ENTRYPOINT_RESERVED.has(name)) throw reserved(name);
    if (!Object.prototype.hasOwnProperty.call(handler, name)) throw notImplemented(name);
    const fn = handler[name];
    if (typeof fn !== 'function') throw new TypeError('"' + name + '" is not a function.');
    if (fn.length > 3) {
      throw new TypeError('Cannot call handler function "' + name + '" over RPC because it has the wrong number of arguments. A simple'
        + ' function handler can only be called over RPC if it has exactly the arguments (arg, env, ctx), where only the first argument'
        + ' comes from the client. To support multi-argument RPC functions, use class-based syntax (extending WorkerEntrypoint) instead.');
    }
    if (args.length !== 1) {
      throw new TypeError('Attempted to call RPC function "' + name + '" with the wrong number of arguments. When calling a top-level'
        + ' handler function that is not declared as part of a class, you must always send exactly one argument. In order to support'
        + ' variable numbers of arguments, the server must use class-based syntax (extending WorkerEntrypoint) instead.');
    }
    return fn.call(handler, args[0], env, ctx);
  }

  /** A call on exported object `handle` (RpcBridge.deliverCall). */
  internal.rpcRunExport = function (handle, op, path, argsBytes) {
    if (!handles.has(handle)) return Promise.resolve(internal.serialize(errorEnvelope(new Error('RPC stub used after being disposed.')), 'rpc'));
    return internal.rpcRun(handles.get(handle), false, op, path, argsBytes);
  };

  /** The last stub of `handle` is gone: forget it and run its [Symbol.dispose]() (an error there is logged, as workerd does). */
  internal.rpcDropExport = function (handle) {
    const value = handles.get(handle);
    handles.delete(handle);
    if (value === undefined || typeof value[Symbol.dispose] !== 'function') return;
    try { value[Symbol.dispose](); } catch (e) { console.error('Uncaught exception in [Symbol.dispose]():', e); }
  };
});
