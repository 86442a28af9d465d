// node:async_hooks: AsyncLocalStorage and AsyncResource on GraalJS's implementation of the TC39
// AsyncContext proposal (context option js.async-context, switched on for nodejs_compat and
// nodejs_als Workers only). The engine carries the context through await, promise reactions and
// queueMicrotask; timers.js snapshots it for setTimeout/setInterval; host callbacks resolve
// promises, whose reactions run in the context they were registered in. Like workerd, enterWith()
// and disable() throw, and the async-id functions answer 0.
import { codedError, invalidArgType } from '../errors.js';
// Internal slots are Symbols, not #private names (cheaper on the shared engine: README, "Internal slots").
const kVariable = Symbol('variable'), kName = Symbol('name'), kSnapshot = Symbol('snapshot');

export function createAsyncHooks(AsyncContext) {
  const { Variable, Snapshot } = AsyncContext;
  const notImplemented = (what) => () => { throw new Error(what + ' is not implemented'); };

  class AsyncLocalStorage {
    constructor(options = {}) {
      if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
      this[kName] = options.name === undefined ? '' : String(options.name);
      this[kVariable] = new Variable({ name: this[kName] });
    }
    get name() { return this[kName]; }
    getStore() { return this[kVariable].get(); }
    run(store, fn, ...args) {
      if (typeof fn !== 'function') throw invalidArgType('callback', 'of type function', fn);
      return this[kVariable].run(store, fn, ...args);
    }
    exit(fn, ...args) {
      if (typeof fn !== 'function') throw invalidArgType('callback', 'of type function', fn);
      return this[kVariable].run(undefined, fn, ...args);
    }
    enterWith() { throw new Error('asyncLocalStorage.enterWith() is not implemented'); }
    disable() { throw new Error('asyncLocalStorage.disable() is not implemented'); }
    static bind(fn) {
      if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
      const snapshot = new Snapshot();
      return function (...args) { return snapshot.run(() => fn.apply(this, args)); };
    }
    static snapshot() {
      const snapshot = new Snapshot();
      return (fn, ...args) => snapshot.run(fn, ...args);
    }
    get [Symbol.toStringTag]() { return 'AsyncLocalStorage'; }
  }

  class AsyncResource {
    constructor(type, options) {
      if (typeof type !== 'string') throw invalidArgType('type', 'of type string', type);
      this[kSnapshot] = new Snapshot();
    }
    runInAsyncScope(fn, thisArg, ...args) {
      if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
      return this[kSnapshot].run(() => fn.apply(thisArg, args));
    }
    bind(fn, thisArg) {
      if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
      const self = this;
      return function (...args) { return self.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args); };
    }
    static bind(fn, type, thisArg) {
      return new AsyncResource(typeof type === 'string' ? type : fn.name || 'bound-anonymous-fn').bind(fn, thisArg);
    }
    emitDestroy() { return this; }
    asyncId() { return 0; }
    triggerAsyncId() { return 0; }
  }

  const hook = { enable() { return this; }, disable() { return this; } };
  return {
    AsyncLocalStorage, AsyncResource,
    createHook: () => hook,
    executionAsyncId: () => 0,
    triggerAsyncId: () => 0,
    executionAsyncResource: () => Object.create(null),
    asyncWrapProviders: Object.freeze(Object.create(null)),
  };
}
