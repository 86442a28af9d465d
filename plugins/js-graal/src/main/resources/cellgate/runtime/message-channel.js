// MessageChannel and MessagePort, inside one context: postMessage() structured-clones the message
// (structured-clone.js) and the other port dispatches it as a MessageEvent in a microtask, as
// workerd does. A port delivers once started: by start() or by setting onmessage; until then its
// messages wait. close() disentangles both ports; messages already sent are still delivered.
(function (host, internal) {
  'use strict';
  const kOther = Symbol('MessagePort.other');
  const kStarted = Symbol('MessagePort.started');
  const kClosed = Symbol('MessagePort.closed');
  const kWaiting = Symbol('MessagePort.waiting');
  const kOnMessage = Symbol('MessagePort.onmessage');
  const TOKEN = Symbol('construct');
  const EventTarget = internal.builtin('EventTarget');

  function dispatch(port, bytes) {
    port.dispatchEvent(internal.newMessageEvent('message', internal.deserialize(bytes), null, ''));
  }

  class MessagePort extends EventTarget {
    constructor(key) {
      super();
      if (key !== TOKEN) throw new TypeError('Illegal constructor');
      this[kOther] = null;
      this[kStarted] = false;
      this[kClosed] = false;
      this[kWaiting] = [];
      this[kOnMessage] = null;
    }
    postMessage(message = undefined, transfer = undefined) {
      if (transfer !== undefined && transfer !== null) {
        const list = Array.isArray(transfer) ? transfer : transfer.transfer;
        if (list !== undefined && list !== null && (!Array.isArray(list) || list.length > 0)) throw new Error('Transfer list is not supported');
      }
      const other = this[kOther];
      if (this[kClosed] || other === null) return;
      const bytes = internal.serialize(message);
      if (other[kStarted]) queueMicrotask(() => dispatch(other, bytes));
      else other[kWaiting].push(bytes);
    }
    start() {
      if (this[kStarted]) return;
      this[kStarted] = true;
      for (const bytes of this[kWaiting].splice(0)) queueMicrotask(() => dispatch(this, bytes));
    }
    close() {
      this[kClosed] = true;
      const other = this[kOther];
      this[kOther] = null;
      if (other !== null) other[kOther] = null;
    }
    get onmessage() { return this[kOnMessage]; }
    set onmessage(fn) {
      if (this[kOnMessage] !== null) this.removeEventListener('message', this[kOnMessage]);
      this[kOnMessage] = typeof fn === 'function' ? fn : null;
      if (this[kOnMessage] !== null) { this.addEventListener('message', this[kOnMessage]); this.start(); }
    }
    get [Symbol.toStringTag]() { return 'MessagePort'; }
  }

  class MessageChannel {
    constructor() {
      const a = new MessagePort(TOKEN);
      const b = new MessagePort(TOKEN);
      a[kOther] = b;
      b[kOther] = a;
      // (own read-only properties, port2 first, as in workerd)
      Object.defineProperty(this, 'port2', { value: b, enumerable: true });
      Object.defineProperty(this, 'port1', { value: a, enumerable: true });
    }
    get [Symbol.toStringTag]() { return 'MessageChannel'; }
  }

  internal.defineGlobal('MessageChannel', MessageChannel);
  internal.defineGlobal('MessagePort', MessagePort);
});
