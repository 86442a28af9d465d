// node:diagnostics_channel: named publish/subscribe channels and tracing channels, as in Node.
// Channels live as long as the context (Node keeps unsubscribed ones weakly; nothing observable differs).
import { invalidArgType } from '../errors.js';

const kSubscribers = Symbol('subscribers');
const kStores = Symbol('stores');
const channels = new Map();

class Channel {
  constructor(name) {
    this.name = name;
    this[kSubscribers] = [];
    this[kStores] = new Map();
  }
  // A method on workerd (a getter in Node).
  hasSubscribers() { return this[kSubscribers].length > 0 || this[kStores].size > 0; }
  subscribe(fn) {
    if (typeof fn !== 'function') throw invalidArgType('subscription', 'of type function', fn);
    this[kSubscribers] = [...this[kSubscribers], fn];
  }
  unsubscribe(fn) {
    const i = this[kSubscribers].indexOf(fn);
    if (i < 0) return false;
    this[kSubscribers] = this[kSubscribers].filter((_, j) => j !== i);
    return true;
  }
  publish(message) {
    for (const fn of this[kSubscribers]) {
      try { fn(message, this.name); } catch (e) { queueMicrotask(() => { throw e; }); }
    }
  }
  bindStore(store, transform) { this[kStores].set(store, transform); }
  unbindStore(store) { return this[kStores].delete(store); }
  runStores(data, fn, thisArg, ...args) {
    let run = () => { this.publish(data); return fn.apply(thisArg, args); };
    for (const [store, transform] of this[kStores]) {
      const inner = run;
      run = () => store.run(transform ? transform(data) : data, inner);
    }
    return run();
  }
}

function channel(name) {
  if (typeof name !== 'string' && typeof name !== 'symbol') throw invalidArgType('channel', 'of type string or symbol', name);
  let c = channels.get(name);
  if (!c) { c = new Channel(name); channels.set(name, c); }
  return c;
}

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

function failed(tracing, context, e) {
  context.error = e;
  tracing.error.publish(context);
}

class TracingChannel {
  constructor(nameOrChannels) {
    for (const e of EVENTS) {
      this[e] = typeof nameOrChannels === 'string' ? channel('tracing:' + nameOrChannels + ':' + e) : nameOrChannels[e];
    }
  }
  get hasSubscribers() { return EVENTS.some((e) => this[e].hasSubscribers()); }
  subscribe(handlers) { for (const e of EVENTS) if (handlers[e]) this[e].subscribe(handlers[e]); }
  unsubscribe(handlers) {
    let done = true;
    for (const e of EVENTS) if (handlers[e] && !this[e].unsubscribe(handlers[e])) done = false;
    return done;
  }
  traceSync(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    return this.start.runStores(context, () => {
      try {
        context.result = fn.apply(thisArg, args);
        return context.result;
      } catch (e) {
        failed(this, context, e);
        throw e;
      } finally {
        this.end.publish(context);
      }
    });
  }
  tracePromise(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    const settled = (error, result) => {
      if (error === undefined) context.result = result;
      else failed(this, context, error);
      this.asyncStart.publish(context);
      this.asyncEnd.publish(context);
    };
    return this.start.runStores(context, () => {
      try {
        return Promise.resolve(fn.apply(thisArg, args)).then((result) => { settled(undefined, result); return result; },
          (e) => { settled(e); throw e; });
      } catch (e) {
        failed(this, context, e);
        throw e;
      } finally {
        this.end.publish(context);
      }
    });
  }
  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    const i = position < 0 ? args.length + position : position;
    const callback = args[i];
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    const self = this;
    args[i] = function (err, result) {
      if (err) { context.error = err; self.error.publish(context); } else context.result = result;
      self.asyncStart.publish(context);
      try { return callback.apply(this, arguments); } finally { self.asyncEnd.publish(context); }
    };
    return this.traceSync(fn, context, thisArg, ...args);
  }
}

export default {
  Channel, TracingChannel, channel,
  hasSubscribers: (name) => { const c = channels.get(name); return c ? c.hasSubscribers() : false; },
  subscribe: (name, fn) => channel(name).subscribe(fn),
  unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
  tracingChannel: (nameOrChannels) => new TracingChannel(nameOrChannels),
};
