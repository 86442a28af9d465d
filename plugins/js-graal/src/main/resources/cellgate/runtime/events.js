// Event, CustomEvent and EventTarget (DOM semantics without a tree: no bubbling or capture phases).
(function (host, internal) {
  'use strict';

  class Event {
    #type; #bubbles; #cancelable; #composed; #canceled = false; #stop = false; #target = null; #current = null;
    #timeStamp = Date.now(); #dispatching = false;
    constructor(type, init = {}) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': 1 argument required, but only 0 present.");
      this.#type = String(type);
      this.#bubbles = !!(init && init.bubbles);
      this.#cancelable = !!(init && init.cancelable);
      this.#composed = !!(init && init.composed);
    }
    get type() { return this.#type; }
    get bubbles() { return this.#bubbles; }
    get cancelable() { return this.#cancelable; }
    get composed() { return this.#composed; }
    get defaultPrevented() { return this.#canceled; }
    get returnValue() { return !this.#canceled; }
    get target() { return this.#target; }
    get srcElement() { return this.#target; }
    get currentTarget() { return this.#current; }
    get timeStamp() { return this.#timeStamp; }
    get eventPhase() { return this.#dispatching ? 2 : 0; }
    get isTrusted() { return false; }
    get cancelBubble() { return this.#stop; }
    set cancelBubble(v) { if (v) this.#stop = true; }
    composedPath() { return this.#dispatching && this.#current ? [this.#current] : []; }
    preventDefault() { if (this.#cancelable) this.#canceled = true; }
    stopPropagation() { }
    stopImmediatePropagation() { this.#stop = true; }
    static {
      internal.eventDispatch = (ev, target, phase) => {
        if (phase === 0) {
          if (ev.#dispatching) throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
          ev.#dispatching = true; ev.#target = target; ev.#current = target; ev.#stop = false;
        } else if (phase === 1) {
          return ev.#stop;
        } else {
          ev.#dispatching = false; ev.#current = null;
        }
        return false;
      };
    }
  }
  Object.defineProperties(Event, {
    NONE: { value: 0 }, CAPTURING_PHASE: { value: 1 }, AT_TARGET: { value: 2 }, BUBBLING_PHASE: { value: 3 },
  });

  class CustomEvent extends Event {
    #detail;
    constructor(type, init = {}) {
      super(type, init);
      this.#detail = init && init.detail !== undefined ? init.detail : null;
    }
    get detail() { return this.#detail; }
  }

  class EventTarget {
    #listeners = new Map();
    addEventListener(type, listener, options) {
      if (listener == null) return;
      if (typeof listener !== 'function' && (typeof listener !== 'object' || typeof listener.handleEvent !== 'function')) {
        throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': The listener must be a function or an object with a handleEvent method.");
      }
      const opts = typeof options === 'object' && options !== null ? options : { capture: !!options };
      if (opts.signal && opts.signal.aborted) return;
      type = String(type);
      let list = this.#listeners.get(type);
      if (!list) this.#listeners.set(type, (list = []));
      const capture = !!opts.capture;
      if (list.some((l) => l.listener === listener && l.capture === capture)) return;
      const entry = { listener, capture, once: !!opts.once, removed: false };
      list.push(entry);
      if (opts.signal) opts.signal.addEventListener('abort', () => this.removeEventListener(type, listener, { capture }));
    }
    removeEventListener(type, listener, options) {
      const capture = typeof options === 'object' && options !== null ? !!options.capture : !!options;
      const list = this.#listeners.get(String(type));
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
        const list = this.#listeners.get(event.type);
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
