// Event, CustomEvent and EventTarget (DOM semantics without a tree: no bubbling or capture phases).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kType = Symbol('Event.type');
  const kBubbles = Symbol('Event.bubbles');
  const kCancelable = Symbol('Event.cancelable');
  const kComposed = Symbol('Event.composed');
  const kCanceled = Symbol('Event.canceled');
  const kStop = Symbol('Event.stop');
  const kTarget = Symbol('Event.target');
  const kCurrent = Symbol('Event.current');
  const kTimeStamp = Symbol('Event.timeStamp');
  const kDispatching = Symbol('Event.dispatching');
  const kDetail = Symbol('CustomEvent.detail');
  const kListeners = Symbol('EventTarget.listeners');

  class Event {
    [kType]; [kBubbles]; [kCancelable]; [kComposed]; [kCanceled] = false; [kStop] = false; [kTarget] = null; [kCurrent] = null;
    [kTimeStamp] = Date.now(); [kDispatching] = false;
    constructor(type, init = {}) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': 1 argument required, but only 0 present.");
      this[kType] = String(type);
      this[kBubbles] = !!(init && init.bubbles);
      this[kCancelable] = !!(init && init.cancelable);
      this[kComposed] = !!(init && init.composed);
    }
    get type() { return this[kType]; }
    get bubbles() { return this[kBubbles]; }
    get cancelable() { return this[kCancelable]; }
    get composed() { return this[kComposed]; }
    get defaultPrevented() { return this[kCanceled]; }
    get returnValue() { return !this[kCanceled]; }
    get target() { return this[kTarget]; }
    get srcElement() { return this[kTarget]; }
    get currentTarget() { return this[kCurrent]; }
    get timeStamp() { return this[kTimeStamp]; }
    get eventPhase() { return this[kDispatching] ? 2 : 0; }
    get isTrusted() { return false; }
    get cancelBubble() { return this[kStop]; }
    set cancelBubble(v) { if (v) this[kStop] = true; }
    composedPath() { return this[kDispatching] && this[kCurrent] ? [this[kCurrent]] : []; }
    preventDefault() { if (this[kCancelable]) this[kCanceled] = true; }
    stopPropagation() { }
    stopImmediatePropagation() { this[kStop] = true; }
    static {
      internal.eventDispatch = (ev, target, phase) => {
        if (phase === 0) {
          if (ev[kDispatching]) throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
          ev[kDispatching] = true; ev[kTarget] = target; ev[kCurrent] = target; ev[kStop] = false;
        } else if (phase === 1) {
          return ev[kStop];
        } else {
          ev[kDispatching] = false; ev[kCurrent] = null;
        }
        return false;
      };
    }
  }
  Object.defineProperties(Event, {
    NONE: { value: 0 }, CAPTURING_PHASE: { value: 1 }, AT_TARGET: { value: 2 }, BUBBLING_PHASE: { value: 3 },
  });

  class CustomEvent extends Event {
    [kDetail];
    constructor(type, init = {}) {
      super(type, init);
      this[kDetail] = init && init.detail !== undefined ? init.detail : null;
    }
    get detail() { return this[kDetail]; }
  }

  class EventTarget {
    [kListeners] = new Map();
    addEventListener(type, listener, options) {
      if (listener == null) return;
      if (typeof listener !== 'function' && (typeof listener !== 'object' || typeof listener.handleEvent !== 'function')) {
        throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': The listener must be a function or an object with a handleEvent method.");
      }
      const opts = typeof options === 'object' && options !== null ? options : { capture: !!options };
      if (opts.signal && opts.signal.aborted) return;
      type = String(type);
      let list = this[kListeners].get(type);
      if (!list) this[kListeners].set(type, (list = []));
      const capture = !!opts.capture;
      if (list.some((l) => l.listener === listener && l.capture === capture)) return;
      const entry = { listener, capture, once: !!opts.once, removed: false };
      list.push(entry);
      if (opts.signal) opts.signal.addEventListener('abort', () => this.removeEventListener(type, listener, { capture }));
    }
    removeEventListener(type, listener, options) {
      const capture = typeof options === 'object' && options !== null ? !!options.capture : !!options;
      const list = this[kListeners].get(String(type));
      if (!list) return;
      const i = list.findIndex((l) => l.listener === listener && l.capture === capture);
      if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
    }
    dispatchEvent(event) {
      if (!(event instanceof Event)) {
        throw new TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'.");
      }
      internal.eventDispatch(event, this, 0);
      try {
        const list = this[kListeners].get(event.type);
        if (list) {
          for (const entry of list.slice()) {
            if (entry.removed) continue;
            if (entry.once) this.removeEventListener(event.type, entry.listener, { capture: entry.capture });
            try {
              if (typeof entry.listener === 'function') entry.listener.call(this, event);
              else entry.listener.handleEvent(event);
            } catch (e) {
              queueMicrotask(() => { throw e; });
            }
            if (internal.eventDispatch(event, this, 1)) break;
          }
        }
      } finally {
        internal.eventDispatch(event, this, 2);
      }
      return !event.defaultPrevented;
    }
  }

  internal.defineGlobal('Event', Event);
  internal.defineGlobal('CustomEvent', CustomEvent);
  internal.defineGlobal('EventTarget', EventTarget);
});
