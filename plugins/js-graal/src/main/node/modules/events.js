// node:events: the `events` package (Node's EventEmitter for every engine), completed with the
// module functions Node added since (errorMonitor, on(), getEventListeners, addAbortListener…).
import EventEmitter from 'events/events.js';
import { codedError, invalidArgType, notImplemented } from '../errors.js';

const errorMonitor = Symbol('events.errorMonitor');
const captureRejectionSymbol = Symbol.for('nodejs.rejection');

// errorMonitor listeners see an 'error' before the ordinary ones, as in Node.
const plainEmit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function emit(type, ...args) {
  if (type === 'error' && this._events !== undefined && this._events[errorMonitor] !== undefined) {
    plainEmit.call(this, errorMonitor, ...args);
  }
  return plainEmit.call(this, type, ...args);
};

function getEventListeners(target, type) {
  if (target && typeof target.listeners === 'function') return target.listeners(type);
  if (target && typeof target.addEventListener === 'function') {
    throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The getEventListeners method is not implemented for EventTarget');
  }
  throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', target);
}

function setMaxListeners(n = EventEmitter.defaultMaxListeners, ...targets) {
  if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
    throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "n" is out of range. It must be a non-negative number. Received ' + String(n));
  }
  if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
  for (const t of targets) {
    if (t && typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
    else throw invalidArgType('eventTargets', 'an instance of EventEmitter or EventTarget', t);
  }
}

function getMaxListeners(target) {
  if (target && typeof target.getMaxListeners === 'function') return target.getMaxListeners();
  throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', target);
}

function addAbortListener(signal, listener) {
  if (signal === undefined) throw invalidArgType('signal', 'an instance of AbortSignal', signal);
  if (typeof listener !== 'function') throw invalidArgType('listener', 'of type function', listener);
  let removed = false;
  const handler = () => { if (!removed) listener(); };
  if (signal.aborted) queueMicrotask(handler);
  else signal.addEventListener('abort', handler, { once: true });
  return { [Symbol.dispose || Symbol.for('Symbol.dispose')]() { removed = true; signal.removeEventListener('abort', handler); } };
}

// Events of `name` as an async iterator; ends when `signal` aborts, rejects on 'error'.
function on(emitter, name, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let done = false;
  const push = (...args) => {
    if (waiting.length) waiting.shift().resolve({ value: args, done: false });
    else queue.push(args);
  };
  const fail = (e) => {
    done = true;
    if (waiting.length) waiting.shift().reject(e);
    else error = e;
    cleanup();
  };
  const cleanup = () => {
    emitter.removeListener(name, push);
    if (name !== 'error') emitter.removeListener('error', fail);
  };
  emitter.on(name, push);
  if (name !== 'error') emitter.on('error', fail);
  const signal = options && options.signal;
  if (signal) {
    const abort = () => {
      const e = new DOMException('The operation was aborted', 'AbortError');
      fail(Object.assign(e, { code: 'ABORT_ERR' }));
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) { const e = error; error = null; return Promise.reject(e); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      done = true;
      cleanup();
      for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(e) { fail(e); return Promise.reject(e); },
    [Symbol.asyncIterator]() { return this; },
  };
}

let captureRejections = false;
Object.defineProperty(EventEmitter, 'captureRejections', {
  get: () => captureRejections,
  set(v) {
    if (v) throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'EventEmitter.captureRejections is not implemented');
    captureRejections = false;
  },
  enumerable: true, configurable: true,
});
Object.assign(EventEmitter, {
  errorMonitor, captureRejectionSymbol, usingDomains: false, getEventListeners, setMaxListeners, getMaxListeners,
  addAbortListener, on, EventEmitterAsyncResource: notImplemented('events.EventEmitterAsyncResource'),
});

export default EventEmitter;
