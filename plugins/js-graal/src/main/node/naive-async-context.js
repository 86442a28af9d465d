// NEGATIVE CONTROL ONLY (NodeModulesConfig.naiveAsyncContextForNegativeControl, set by
// AsyncLocalStorageTest): the AsyncContext a runtime without engine support might write — a global
// mapping that run() sets and restores. It is right for synchronous code and wrong across await and
// between interleaved requests, which is what the test must catch. Never used otherwise.
export function naiveAsyncContext() {
  let current = new Map();
  class Variable {
    get() { return current.get(this); }
    run(value, fn, ...args) {
      const saved = current;
      current = new Map(saved).set(this, value);
      try { return fn(...args); } finally { current = saved; }
    }
  }
  class Snapshot {
    constructor() { this.mapping = current; }
    run(fn, ...args) {
      const saved = current;
      current = this.mapping;
      try { return fn(...args); } finally { current = saved; }
    }
  }
  return { Variable, Snapshot };
}
