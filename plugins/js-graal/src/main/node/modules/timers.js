// node:timers and node:timers/promises over the platform's timers (timers.js): Node's Timeout and
// Immediate objects (ref/unref/hasRef/refresh/close, a number when coerced), setImmediate as a
// zero-delay timer, and the promise forms with AbortSignal.
/* global internal */
import { codedError, invalidArgType } from '../errors.js';

// The platform's timers (timers.js), whatever the globals are now: from 2026-02-10 the global
// setTimeout/setInterval are this module's own (node-globals.js).
const setTimeout = internal.builtin('setTimeout');
const setInterval = internal.builtin('setInterval');
const clearTimeout = internal.builtin('clearTimeout');
// Internal slots are Symbols, not #private names (cheaper on the shared engine: README, "Internal slots").
const kId = Symbol('id'), kFn = Symbol('fn'), kDelay = Symbol('delay'), kArgs = Symbol('args'), kRepeat = Symbol('repeat'), kRef = Symbol('ref');

class Timeout {
  constructor(fn, delay, args, repeat) {
    this[kRef] = true;
    this[kFn] = fn;
    this[kDelay] = delay;
    this[kArgs] = args;
    this[kRepeat] = repeat;
    this[kId] = (repeat ? setInterval : setTimeout)(fn, delay, ...args);
  }
  refresh() {
    clearTimeout(this[kId]);
    this[kId] = (this[kRepeat] ? setInterval : setTimeout)(this[kFn], this[kDelay], ...this[kArgs]);
    return this;
  }
  unref() { this[kRef] = false; return this; }
  ref() { this[kRef] = true; return this; }
  hasRef() { return this[kRef]; }
  close() { clearTimeout(this[kId]); return this; }
  [Symbol.toPrimitive]() { return this[kId]; }
  [Symbol.dispose || Symbol.for('Symbol.dispose')]() { this.close(); }
}

class Immediate {
  constructor(fn, args) { this[kRef] = true; this[kId] = setTimeout(fn, 0, ...args); }
  ref() { this[kRef] = true; return this; }
  unref() { this[kRef] = false; return this; }
  hasRef() { return this[kRef]; }
  [Symbol.toPrimitive]() { return this[kId]; }
  [Symbol.dispose || Symbol.for('Symbol.dispose')]() { clearTimeout(this[kId]); }
}

const checkFn = (fn) => { if (typeof fn !== 'function') throw invalidArgType('callback', 'of type function', fn); };
const clear = (t) => { if (t instanceof Timeout) t.close(); else if (t != null) clearTimeout(Number(t)); };

export function setImmediate(fn, ...args) { checkFn(fn); return new Immediate(fn, args); }
export function clearImmediate(i) { if (i != null) clearTimeout(Number(i)); }

const abortError = (signal) => {
  const e = new DOMException('The operation was aborted', 'AbortError');
  Object.defineProperty(e, 'code', { value: 'ABORT_ERR', enumerable: true, configurable: true, writable: true });
  if (signal && signal.reason !== undefined) e.cause = signal.reason;
  return e;
};

function delayed(delay, value, options = {}, immediate = false) {
  if (options === null || typeof options !== 'object') return Promise.reject(invalidArgType('options', 'of type object', options));
  const signal = options.signal;
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) {
    return Promise.reject(invalidArgType('options.signal', 'an instance of AbortSignal', signal));
  }
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const id = setTimeout(() => { if (signal) signal.removeEventListener('abort', onAbort); resolve(value); }, immediate ? 0 : delay);
    const onAbort = () => { clearTimeout(id); reject(abortError(signal)); };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function* interval(delay, value, options = {}) {
  const signal = options && options.signal;
  if (signal && signal.aborted) throw abortError(signal);
  for (;;) {
    await delayed(delay, undefined, options);
    yield value;
  }
}

export const promises = {
  setTimeout: (delay, value, options) => delayed(delay, value, options),
  setImmediate: (value, options) => delayed(0, value, options, true),
  setInterval: interval,
  scheduler: {
    wait: (delay, options) => delayed(delay, undefined, options),
    yield: () => delayed(0, undefined, {}, true),
  },
};

const unsupported = (name) => () => { throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The timers.' + name + ' method is not implemented'); };
export default {
  Timeout: undefined, // exported by name but undefined on workerd; Timeout objects come from setTimeout()
  setTimeout: (fn, delay, ...args) => { checkFn(fn); return new Timeout(fn, delay, args, false); },
  setInterval: (fn, delay, ...args) => { checkFn(fn); return new Timeout(fn, delay, args, true); },
  clearTimeout: clear, clearInterval: clear, setImmediate, clearImmediate, promises,
  active: unsupported('active'), enroll: unsupported('enroll'), unenroll: unsupported('unenroll'),
};
