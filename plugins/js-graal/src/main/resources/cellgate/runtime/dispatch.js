// Entry points the host calls (JsFunctions.java): a Worker's fetch, a cell's construction, fetch,
// RPC call and alarm. Each answers on the Java event object it is given.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kEvent = Symbol('ExecutionContext.event');
  const kProps = Symbol('ExecutionContext.props');
  let env = {};
  let scriptName = '';
  let exports = null;
  let cell = null;
  let cfgDurableObjects = []; // the classes of the Durable Object bindings (they have storage: ctx.exports)
  // Explicit resource management's well-known symbols, which GraalJS 25 lacks and RPC stubs use
  // (`stub[Symbol.dispose]()`; Wrangler's esbuild lowers `using` declarations to calls of it).
  for (const name of ['dispose', 'asyncDispose']) {
    if (typeof Symbol[name] !== 'symbol') Object.defineProperty(Symbol, name, { value: Symbol('Symbol.' + name) });
  }
  // Durable Object classes of the platform itself (a D1 database's cell: bindings/d1.js), by the
  // class name their cells carry; never among the bundle's exports, and no export may take a name.
  internal.builtinClasses = Object.create(null);
  internal.hiddenBindings = Object.create(null);
  internal.cellTarget = () => (cell === null ? null : cell.target); // websocket.js delivers hibernatable sockets' events to it

  internal.configure = function (json) {
    const cfg = JSON.parse(json);
    scriptName = cfg.scriptName;
    const flags = cfg.compatibilityFlags || [];
    internal.compat = {
      // workerd: deleteAll() removes the alarm from compatibility date 2026-02-24 on.
      deleteAllDeletesAlarm: flags.includes('delete_all_deletes_alarm')
        || (!flags.includes('delete_all_preserves_alarm') && String(cfg.compatibilityDate || '') >= '2026-02-24'),
      // workerd: a DecompressionStream fails on bytes after the end or an early close from 2023-08-01 on.
      strictCompression: flags.includes('strict_compression_checks')
        || (!flags.includes('no_strict_compression_checks') && String(cfg.compatibilityDate || '') >= '2023-08-01'),
      // workerd: navigator.language(s) from 2025-05-19 on.
      navigatorLanguage: flags.includes('enable_navigator_language')
        || (!flags.includes('disable_navigator_language') && String(cfg.compatibilityDate || '') >= '2025-05-19'),
      // workerd: ctx.exports (loopback bindings to the Worker's own exports) from 2025-11-17 on (enableCtxExports).
      ctxExports: flags.includes('enable_ctx_exports')
        || (!flags.includes('disable_ctx_exports') && String(cfg.compatibilityDate || '') >= '2025-11-17'),
    };
    if (internal.compat.ctxExports) {
      Object.defineProperty(ExecutionContext.prototype, 'exports', { get() { return ctxExports(); }, configurable: true });
    }
    // nodejs_compat (NodeModulesConfig.java): the node: modules read it; v2 adds Buffer, process… as globals.
    internal.nodeConfig = cfg.node;
    if (cfg.node && cfg.node.globals) internal.installNodeGlobals();
    // workerd exposes MessageChannel and MessagePort from 2025-08-15 on; before that they are not defined.
    if (!(flags.includes('expose_global_message_channel')
      || (!flags.includes('no_expose_global_message_channel') && String(cfg.compatibilityDate || '') >= '2025-08-15'))) {
      delete globalThis.MessageChannel;
      delete globalThis.MessagePort;
    }
    // false only in the engine's negative control for the gate tests (GraalJsEngine.Gates).
    internal.gatesEnforced = cfg.gatesEnforced !== false;
    cfgDurableObjects = Object.values(cfg.durableObjects);
    env = Object.assign({}, cfg.vars);
    for (const [binding, className] of Object.entries(cfg.durableObjects)) env[binding] = internal.newNamespace(scriptName, className);
    // Every other binding (secrets, KV, …: docs/architecture.md, "Bindings") comes from its type's
    // provider on the host; the type's wrapper (cellgate/bindings/<type>.js), if any, makes it the
    // Workers API, else the host's value is the env entry as it is (a secret's string).
    const bindings = host.bindings();
    for (let i = 0; i < cfg.bindings.length; i++) {
      const b = cfg.bindings[i];
      const target = bindings.open(i);
      const wrapper = bindings.wrapper(b.type);
      const value = wrapper === null ? target : wrapper(host, internal)(target, b.settings, b.name);
      // A binding the platform adds for itself ($cellgate$queues: the queue cells' machinery) is not the Worker's.
      if (b.name.startsWith('$cellgate$')) internal.hiddenBindings[b.name] = value; else env[b.name] = value;
    }
    internal.env = env;
    // Visible only while the bundle's modules evaluate, for the "cloudflare:workers" module.
    Object.defineProperty(globalThis, Symbol.for('cellgate.internal'), { value: internal, configurable: true });
  };
  // For binding wrappers: a promise of a host object's CompletionStage, settled on this instance's
  // executor; a failure rejects with the JavaScript error class the host named (BindingCallException).
  internal.hostPromise = (stage) => new Promise((resolve, reject) => {
    host.bindings().await(stage, (ok, a, b) => {
      if (ok) { resolve(a); return; }
      const Cls = globalThis[a];
      reject(typeof Cls === 'function' && (Cls === Error || Cls.prototype instanceof Error) ? new Cls(b) : new Error(b));
    });
  });
  internal.initBundle = function (namespace) {
    delete globalThis[Symbol.for('cellgate.internal')];
    exports = namespace;
  };
  // A Workflow instance's cell (bindings/workflow.js) constructs the Worker's own WorkflowEntrypoint class.
  internal.bundleExport = (name) => exports[name];
  internal.exportedClassNames = () => {
    const own = Object.keys(exports).filter((k) => k !== 'default' && typeof exports[k] === 'function');
    const clash = own.find((k) => internal.builtinClasses[k] !== undefined);
    if (clash !== undefined) throw new Error('the export name ' + clash + ' is reserved by cellgate for a built-in Durable Object class');
    return [...own, ...Object.keys(internal.builtinClasses)].join(',');
  };
  // The load check of service bindings (GraalLoadedScript): every export's name and what it is.
  internal.exportKinds = () => JSON.stringify(Object.fromEntries(Object.keys(exports).map((k) => [k, internal.exportKind(exports[k])])));
  // ctx.exports (and a Durable Object's ctx.exports): one object per context, made on first use (service-bindings.js).
  let loopbacks = null;
  const ctxExports = () => (loopbacks === null ? (loopbacks = internal.newCtxExports(exports, scriptName, cfgDurableObjects)) : loopbacks);
  internal.ctxExports = ctxExports;

  function answer(event, response) {
    if (!(response instanceof Response)) {
      event.fail('TypeError', "Incorrect type for Promise: the Promise did not resolve to 'Response'.", '');
      return;
    }
    let parts;
    try { parts = internal.responseToHost(response); } catch (e) { event.fail(...internal.errorParts(e)); return; }
    event.respond(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]);
  }
  function settle(event, result) {
    if (result instanceof Response) { answer(event, result); return; }
    Promise.resolve(result).then((r) => answer(event, r), (e) => event.fail(...internal.errorParts(e)));
  }

  class ExecutionContext {
    [kEvent]; [kProps];
    // props: what the service binding that called this entrypoint carries (`services[].props`), else {}.
    constructor(event, props) { this[kEvent] = event; this[kProps] = props === undefined ? {} : props; }
    waitUntil(promise) {
      const event = this[kEvent];
      event.waitUntilBegin();
      Promise.resolve(promise).then(() => event.waitUntilEnd(), (e) => {
        console.error('Uncaught (in promise) from ctx.waitUntil():', e);
        event.waitUntilEnd();
      });
    }
    passThroughOnException() { throw internal.unsupported('ctx.passThroughOnException()'); }
    get props() { return this[kProps]; }
    // workerd's ctx is a host object: String(ctx) is "[object ExecutionContext]"
    get [Symbol.toStringTag]() { return 'ExecutionContext'; }
  }
  internal.defineGlobal('ExecutionContext', ExecutionContext);

  internal.dispatchFetch = function (event, method, url, headerLines, bodyKind, body, cfJson) {
    let result;
    try {
      const request = internal.requestFromHost(method, url, headerLines, bodyKind, body, cfJson);
      if (cell !== null) {
        if (typeof cell.target.fetch !== 'function') throw new TypeError('Handler does not export a fetch() function.');
        result = cell.target.fetch(request);
      } else {
        result = callFetch(exports.default, request, new ExecutionContext(event));
      }
    } catch (e) {
      event.fail(...internal.errorParts(e));
      return;
    }
    settle(event, result);
  };

  // A request through the runtime's own request and response path, never the Worker's code: made
  // once per lane before the lane takes traffic (WorkerPool.warm), so the first real request does
  // not pay for parsing and first runs of that path (issue 22). Nothing the Worker can observe.
  internal.dispatchWarmUp = function (event, method, url, headerLines, bodyKind, body) {
    try {
      const request = internal.requestFromHost(method, url, headerLines, bodyKind, body, null);
      const response = new Response(request.method + ' ' + new URL(request.url).pathname, {
        status: 200, headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-warm': request.headers.get('x-warm') ?? '' },
      });
      answer(event, response);
    } catch (e) {
      event.fail(...internal.errorParts(e));
    }
  };

  const hasFetch = (h) => (typeof h === 'function' && h.prototype && typeof h.prototype.fetch === 'function')
    || (h !== null && typeof h === 'object' && typeof h.fetch === 'function');

  // A fetch handler: a class constructed with (ctx, env) per request, or an object's fetch(request, env, ctx).
  function callFetch(handler, request, ctx) {
    if (typeof handler === 'function' && handler.prototype && typeof handler.prototype.fetch === 'function') {
      return new handler(ctx, env).fetch(request);
    }
    if (handler !== null && typeof handler === 'object' && typeof handler.fetch === 'function') {
      return handler.fetch(request, env, ctx);
    }
    throw new TypeError('Handler does not export a fetch() function.');
  }

  // A service binding's fetch to this Worker (ServiceCalls.java): a new request context for the
  // entrypoint (null: the default export), whichever context — Worker or Durable Object — called it.
  internal.dispatchServiceFetch = function (event, entrypoint, propsJson, method, url, headerLines, bodyKind, body) {
    let result;
    try {
      const request = internal.requestFromHost(method, url, headerLines, bodyKind, body, null);
      const ctx = new ExecutionContext(event, propsJson === null ? undefined : JSON.parse(propsJson));
      const handler = exports[entrypoint === null ? 'default' : entrypoint];
      // workerd: an Error (not the TypeError of an incoming request) when a service binding's target has no fetch
      if (!hasFetch(handler)) throw new Error('Handler does not export a fetch() function.');
      result = callFetch(handler, request, ctx);
    } catch (e) {
      event.fail(...internal.errorParts(e));
      return;
    }
    settle(event, result);
  };

  // A service binding's RPC call to this Worker: the entrypoint is constructed for it with a new ctx (rpc-server.js).
  internal.dispatchServiceCall = function (event, entrypoint, propsJson, op, pathJson, argsBuffer) {
    const ctx = new ExecutionContext(event, propsJson === null ? undefined : JSON.parse(propsJson));
    internal.rpcRunEntrypoint(exports[entrypoint === null ? 'default' : entrypoint], env, ctx, op, JSON.parse(pathJson),
      new Uint8Array(new ArrayBuffer(argsBuffer))).then(
      (bytes) => event.result(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      (e) => event.fail(...internal.errorParts(e)));
  };

  // A Durable Object in this context: its class constructed with (ctx, env). cellBridge is the
  // instance's CellBridge (input gate, waitUntil); storageBridge its StorageBridge.
  internal.constructCell = function (className, hex, name, storageBridge, cellBridge) {
    const Cls = internal.builtinClasses[className] !== undefined ? internal.builtinClasses[className] : exports[className];
    if (typeof Cls !== 'function') throw new TypeError('The deployment exports no class ' + className);
    const id = internal.newId(className, hex, name === null ? undefined : name);
    const gate = internal.newCellGate(cellBridge, internal.gatesEnforced);
    cell = { target: null };
    const hasAlarmHandler = () => (cell.target !== null ? typeof cell.target.alarm === 'function'
      : typeof Cls.prototype === 'object' && Cls.prototype !== null && typeof Cls.prototype.alarm === 'function');
    const storage = internal.newStorage(storageBridge, {
      hasAlarmHandler, deleteAllDeletesAlarm: internal.compat.deleteAllDeletesAlarm, block: gate.block, settle: gate.settle,
    });
    cell.target = new Cls(internal.newDurableObjectState(id, storage, cellBridge, gate), env);
  };

  internal.dispatchCall = function (event, method, argsBuffer) {
    internal.runRpc(cell.target, method, new Uint8Array(new ArrayBuffer(argsBuffer))).then(
      (bytes) => event.result(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      (e) => event.fail(...internal.errorParts(e)));
  };

  // A call on an object this context exported by reference (RpcBridge.deliverCall), or, with op
  // "dispose", the release of its last stub (rpc-server.js).
  internal.dispatchExport = function (event, handle, op, pathJson, argsBuffer) {
    if (op === 'dispose') {
      try { internal.rpcDropExport(handle); } finally { event.done(); }
      return;
    }
    internal.rpcRunExport(handle, op, JSON.parse(pathJson), new Uint8Array(new ArrayBuffer(argsBuffer))).then(
      (bytes) => event.result(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      (e) => event.fail(...internal.errorParts(e)));
  };

  // A cron trigger's event (GraalWorkerInstance.scheduled): as on workerd, cron and scheduledTime
  // are read-only own properties, noRetry() is on the prototype (it has nothing to do here: the
  // fleet never retries a cron run); there is no `type` and no global ScheduledController (miniflare has neither).
  class ScheduledController {
    constructor(cron, scheduledTime) {
      Object.defineProperty(this, 'cron', { value: cron, enumerable: true });
      Object.defineProperty(this, 'scheduledTime', { value: scheduledTime, enumerable: true });
    }
    noRetry() {}
    get [Symbol.toStringTag]() { return 'ScheduledController'; }
  }

  // The event ends when the handler has settled AND its ctx.waitUntil promises have (workerd reports a
  // scheduled event's outcome only then), so the host sees the whole run; a rejection fails the run.
  internal.dispatchScheduled = function (event, cron, scheduledTime) {
    let pending = 0;
    let handlerDone = false;
    const finish = () => { if (handlerDone && pending === 0) event.done(); };
    const tracked = {
      waitUntilBegin() { pending++; event.waitUntilBegin(); },
      waitUntilEnd() { pending--; event.waitUntilEnd(); finish(); },
    };
    let result;
    try {
      const handler = exports.default;
      const ctx = new ExecutionContext(tracked);
      const controller = new ScheduledController(cron, scheduledTime);
      if (typeof handler === 'function' && handler.prototype && typeof handler.prototype.scheduled === 'function') {
        result = new handler(ctx, env).scheduled(controller);
      } else if (handler !== null && typeof handler === 'object' && typeof handler.scheduled === 'function') {
        result = handler.scheduled(controller, env, ctx);
      } else {
        throw new Error('the Worker has no scheduled() handler: a cron trigger needs export default { scheduled(controller, env, ctx) }');
      }
    } catch (e) {
      event.fail(...internal.errorParts(e));
      return;
    }
    Promise.resolve(result).then(() => { handlerDone = true; finish(); }, (e) => event.fail(...internal.errorParts(e)));
  };

  // A handler of the default export other than fetch, called by a built-in class in this context (a queue
  // cell's batch: bindings/queues.js): handler(arg, env, ctx), or a class's method; none is an error.
  // `event` tracks the ctx.waitUntil promises (waitUntilBegin/End).
  internal.callDefaultHandler = function (name, arg, event) {
    const handler = exports.default;
    const ctx = new ExecutionContext(event);
    if (typeof handler === 'function' && handler.prototype && typeof handler.prototype[name] === 'function') return new handler(ctx, env)[name](arg);
    if (handler !== null && typeof handler === 'object' && typeof handler[name] === 'function') return handler[name](arg, env, ctx);
    throw new Error('the Worker has no ' + name + '() handler: export default { ' + name + '(…, env, ctx) }');
  };

  internal.dispatchAlarm = function (event, retryCount, isRetry) {
    let result;
    try {
      if (typeof cell.target.alarm !== 'function') throw new TypeError(cell.target.constructor.name + ' has no alarm() handler.');
      result = cell.target.alarm({ retryCount, isRetry });
    } catch (e) {
      event.fail(...internal.errorParts(e));
      return;
    }
    Promise.resolve(result).then(() => event.done(), (e) => event.fail(...internal.errorParts(e)));
  };
});
