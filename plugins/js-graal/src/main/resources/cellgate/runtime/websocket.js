// WebSockets (WebSocketBridge.java): WebSocketPair, WebSocket (accept, send, close, events), the
// message/close/error event classes, and the Durable Object hibernation API that
// durable-object-state.js delegates to (internal.webSocketState). A socket is either a pair end
// held here (accepted with accept(): its frames arrive as events on this object), or a
// hibernatable socket kept by the cell host and named by id (ctx.acceptWebSocket): those outlive
// the context, and their frames arrive as webSocketMessage/webSocketClose calls on the object.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kData = Symbol('MessageEvent.data');
  const kCode = Symbol('CloseEvent.code');
  const kReason = Symbol('CloseEvent.reason');
  const kWasClean = Symbol('CloseEvent.wasClean');
  const kMessage = Symbol('ErrorEvent.message');
  const kError = Symbol('ErrorEvent.error');
  const kHandle = Symbol('WebSocket.handle');
  const kId = Symbol('WebSocket.id');
  const kAccepted = Symbol('WebSocket.accepted');
  const kGiven = Symbol('WebSocket.given');
  const kState = Symbol('WebSocket.state');
  const kSentClose = Symbol('WebSocket.sentClose');
  const kAttachment = Symbol('WebSocket.attachment');
  const kArrive = Symbol('WebSocket.arrive');
  const kRequest = Symbol('WebSocketRequestResponsePair.request');
  const kResponse = Symbol('WebSocketRequestResponsePair.response');
  const hasOwn = Object.hasOwn;
  const bridge = host.webSockets();
  const TOKEN = Symbol('WebSocket');
  const [CONNECTING, OPEN, CLOSING, CLOSED] = [0, 1, 2, 3];
  const NOT_ACCEPTED = 'You must call one of accept() or state.acceptWebSocket() on this WebSocket before sending messages.';
  const MAX_ATTACHMENT = 16384;
  const MAX_AUTO = 2048;
  const utf8 = new TextEncoder();

  function check(result) {
    if (result === null || result === undefined) {
      const msg = bridge.takeError();
      if (msg !== null && msg !== undefined) throw new Error(msg);
    }
    return result;
  }
  const copyBuffer = (bb) => new Uint8Array(new ArrayBuffer(bb)).slice().buffer;

  const kOrigin = Symbol('MessageEvent.origin');
  const kLastEventId = Symbol('MessageEvent.lastEventId');
  class MessageEvent extends Event {
    [kData];
    [kOrigin] = null;
    [kLastEventId] = '';
    constructor(type, init = {}) { super(type, init); this[kData] = init && init.data !== undefined ? init.data : null; }
    get data() { return this[kData]; }
    // (workerd sets these only on the events it makes: MessagePort's and EventSource's, not from an init)
    get origin() { return this[kOrigin]; }
    get lastEventId() { return this[kLastEventId]; }
    get source() { return null; }
    get ports() { return []; }
    static {
      internal.newMessageEvent = (type, data, origin, lastEventId) => {
        const e = new MessageEvent(type);
        e[kData] = data;
        e[kOrigin] = origin;
        e[kLastEventId] = lastEventId;
        return e;
      };
    }
  }
  class CloseEvent extends Event {
    [kCode]; [kReason]; [kWasClean];
    constructor(type, init = {}) {
      super(type, init);
      this[kCode] = init && init.code !== undefined ? Number(init.code) : 0;
      this[kReason] = init && init.reason !== undefined ? String(init.reason) : '';
      this[kWasClean] = !!(init && init.wasClean);
    }
    get code() { return this[kCode]; }
    get reason() { return this[kReason]; }
    get wasClean() { return this[kWasClean]; }
  }
  class ErrorEvent extends Event {
    [kMessage]; [kError];
    constructor(type, init = {}) {
      super(type, init);
      this[kMessage] = init && init.message !== undefined ? String(init.message) : '';
      this[kError] = init ? init.error : undefined;
    }
    get message() { return this[kMessage]; }
    get error() { return this[kError]; }
    get filename() { return ''; }
    get lineno() { return 0; }
    get colno() { return 0; }
  }

  // Wrappers of hibernatable sockets by id: the same object for every event and getWebSockets().
  const byId = new Map();

  function validClose(code, reason) {
    if (code === undefined) {
      if (reason !== undefined) {
        throw new DOMException('If you specify a WebSocket close reason, you must also specify a code.', 'InvalidAccessError');
      }
      return;
    }
    const c = Number(code);
    if (!Number.isInteger(c) || c < 1000 || c > 4999 || c === 1004 || c === 1005 || c === 1006 || c === 1015) {
      throw new DOMException('Invalid WebSocket close code: ' + code + '.', 'InvalidAccessError');
    }
  }

  function payload(data) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return String(data);
  }

  class WebSocket extends EventTarget {
    [kHandle] = null;   // SocketHandle of a pair end held in this context
    [kId] = null;       // id of a hibernatable socket (the cell host holds it)
    [kAccepted] = false;
    [kGiven] = false;   // handed to the host in a 101 response
    [kState] = OPEN;
    [kSentClose] = false;
    [kAttachment] = null;

    constructor(url, handle) {
      super();
      if (url !== TOKEN) throw internal.unsupported('new WebSocket(url) (outbound WebSocket connections)');
      this[kHandle] = handle;
    }

    static get CONNECTING() { return CONNECTING; }
    static get OPEN() { return OPEN; }
    static get CLOSING() { return CLOSING; }
    static get CLOSED() { return CLOSED; }
    static get READY_STATE_CONNECTING() { return CONNECTING; }
    static get READY_STATE_OPEN() { return OPEN; }
    static get READY_STATE_CLOSING() { return CLOSING; }
    static get READY_STATE_CLOSED() { return CLOSED; }

    get readyState() {
      if (this[kId] !== null) return this[kSentClose] && bridge.hReadyState(this[kId]) === OPEN ? CLOSING : bridge.hReadyState(this[kId]);
      return this[kState];
    }
    get url() { return null; }
    get protocol() { return ''; }
    get extensions() { return ''; }
    get binaryType() { return 'arraybuffer'; }

    accept() {
      if (this[kId] !== null) throw new TypeError("Can't accept() WebSocket after enabling hibernation.");
      if (this[kGiven]) throw new TypeError("Can't accept() a WebSocket that was returned in a Response.");
      if (this[kAccepted]) return;
      this[kAccepted] = true;
      bridge.accept(this[kHandle], (kind, value, code, reason) => this[kArrive](kind, value, code, reason));
    }

    [kArrive](kind, value, code, reason) {
      if (kind === 3) {
        const wasClean = code !== 1006;
        this[kState] = this[kSentClose] || !wasClean ? CLOSED : CLOSING;
        this.dispatchEvent(new CloseEvent('close', { code, reason, wasClean }));
        return;
      }
      this.dispatchEvent(new MessageEvent('message', { data: kind === 1 ? value : copyBuffer(value) }));
    }

    send(data) {
      if (arguments.length === 0 || data === undefined) {
        throw new TypeError("Failed to execute 'send' on 'WebSocket': parameter 1 is not of type 'ArrayBuffer or ArrayBufferView or string'.");
      }
      if (!this[kAccepted] && this[kId] === null) throw new TypeError(NOT_ACCEPTED);
      if (this[kSentClose]) throw new TypeError("Can't call WebSocket send() after close().");
      const p = payload(data);
      if (this[kId] !== null) {
        check(typeof p === 'string' ? bridge.hSendText(this[kId], p) : bridge.hSendBinary(this[kId], p.buffer, p.byteOffset, p.byteLength));
      } else if (typeof p === 'string') {
        bridge.sendText(this[kHandle], p);
      } else {
        bridge.sendBinary(this[kHandle], p.buffer, p.byteOffset, p.byteLength);
      }
    }

    close(code, reason) {
      validClose(code, reason);
      if (!this[kAccepted] && this[kId] === null) throw new TypeError(NOT_ACCEPTED);
      if (this[kSentClose]) return;
      this[kSentClose] = true;
      const c = code === undefined ? 1005 : Number(code);
      const r = reason === undefined ? '' : String(reason);
      if (this[kId] !== null) {
        check(bridge.hClose(this[kId], c, r));
        return;
      }
      this[kState] = this[kState] === CLOSING ? CLOSED : CLOSING;
      bridge.close(this[kHandle], c, r);
    }

    serializeAttachment(value) {
      const bytes = internal.serialize(value);
      if (bytes.byteLength > MAX_ATTACHMENT) {
        throw new Error("A WebSocket 'attachment' cannot be larger than " + MAX_ATTACHMENT + " bytes.'attachment' was " + bytes.byteLength + ' bytes.');
      }
      if (this[kId] !== null) check(bridge.hSetAttachment(this[kId], bytes.buffer, bytes.byteOffset, bytes.byteLength));
      else this[kAttachment] = bytes.slice();
    }

    deserializeAttachment() {
      if (this[kId] === null) return this[kAttachment] === null ? null : internal.deserialize(this[kAttachment]);
      const bb = bridge.hAttachment(this[kId]);
      return bb === null || bb === undefined ? null : internal.deserialize(new Uint8Array(copyBuffer(bb)));
    }

    get [Symbol.toStringTag]() { return 'WebSocket'; }

    static {
      internal.isWebSocket = (v) => v !== null && typeof v === 'object' && hasOwn(v, kHandle);
      internal.webSocketFromHandle = (handle) => new WebSocket(TOKEN, handle);
      // The end a 101 response hands to the host: never one used here.
      internal.webSocketForResponse = (ws) => {
        if (ws[kId] !== null || ws[kAccepted]) throw new TypeError("Can't return a WebSocket in a Response after calling accept() or acceptWebSocket() on it.");
        if (ws[kGiven]) throw new TypeError('This WebSocket was already returned in another Response.');
        ws[kGiven] = true;
        return ws[kHandle];
      };
      internal.hibernateWebSocket = (ws, tags) => {
        if (ws[kAccepted] || ws[kId] !== null) throw new Error('Cannot call `acceptWebSocket()` if the WebSocket was already accepted via `accept()`');
        if (ws[kGiven]) throw new TypeError('This WebSocket was returned in a Response; accept its other end.');
        const id = check(bridge.hAccept(ws[kHandle], tags));
        ws[kId] = id;
        ws[kHandle] = null;
        byId.set(id, ws);
        // An attachment set before acceptWebSocket() moves to the host with the socket, so it
        // outlives hibernation like one set afterwards (workerd keeps it too).
        const early = ws[kAttachment];
        ws[kAttachment] = null;
        if (early !== null) check(bridge.hSetAttachment(id, early.buffer, early.byteOffset, early.byteLength));
      };
      internal.hibernatedWebSocket = (id) => {
        let ws = byId.get(id);
        if (ws === undefined) {
          ws = new WebSocket(TOKEN, null);
          ws[kId] = id;
          byId.set(id, ws);
        }
        return ws;
      };
      internal.webSocketId = (ws) => ws[kId];
    }
  }

  class WebSocketPair {
    constructor() {
      const ends = bridge.newPair();
      Object.defineProperty(this, '0', { value: internal.webSocketFromHandle(ends[0]), enumerable: true, writable: true, configurable: true });
      Object.defineProperty(this, '1', { value: internal.webSocketFromHandle(ends[1]), enumerable: true, writable: true, configurable: true });
    }
  }

  function autoLimit(what, s) {
    const n = utf8.encode(s).byteLength;
    if (n > MAX_AUTO) throw new RangeError(what + ' cannot be larger than ' + MAX_AUTO + ' bytes. A ' + what.toLowerCase() + ' of size ' + n + ' was provided.');
  }

  class WebSocketRequestResponsePair {
    [kRequest]; [kResponse];
    constructor(request, response) {
      if (arguments.length < 2) throw new TypeError("Failed to construct 'WebSocketRequestResponsePair': 2 arguments required.");
      this[kRequest] = String(request);
      this[kResponse] = String(response);
      autoLimit('Request', this[kRequest]);
      autoLimit('Response', this[kResponse]);
    }
    get request() { return this[kRequest]; }
    get response() { return this[kResponse]; }
  }

  function requireWebSocket(ws, method) {
    if (!internal.isWebSocket(ws)) {
      throw new TypeError("Failed to execute '" + method + "' on 'DurableObjectState': parameter 1 is not of type 'WebSocket'.");
    }
  }
  const hibernatedList = (ids) => [...ids].map((id) => internal.hibernatedWebSocket(id));

  // The WebSocket part of DurableObjectState (a Durable Object's ctx): durable-object-state.js calls these.
  const stateMethods = {
    acceptWebSocket(ws, tags) {
      requireWebSocket(ws, 'acceptWebSocket');
      const list = tags === undefined || tags === null ? [] : Array.from(tags, String);
      if (list.length > 10) throw new Error('a Hibernatable WebSocket cannot have more than 10 tags');
      for (const t of list) {
        if (t.length > 256) throw new Error('"' + t + '" is longer than the max tag length (256 characters).');
      }
      internal.hibernateWebSocket(ws, list);
    },
    getWebSockets(tag) {
      return hibernatedList(bridge.hIds(tag === undefined || tag === null ? null : String(tag)));
    },
    getTags(ws) {
      requireWebSocket(ws, 'getTags');
      const id = internal.webSocketId(ws);
      if (id === null) throw new Error('only hibernatable websockets can have tags.');
      return [...bridge.hTags(id)];
    },
    setWebSocketAutoResponse(pair) {
      if (pair === undefined || pair === null) { check(bridge.hSetAutoResponse(null, null)); return; }
      if (!(pair instanceof WebSocketRequestResponsePair)) {
        throw new TypeError("Failed to execute 'setWebSocketAutoResponse' on 'DurableObjectState': parameter 1 is not of type 'WebSocketRequestResponsePair'.");
      }
      check(bridge.hSetAutoResponse(pair.request, pair.response));
    },
    getWebSocketAutoResponse() {
      const a = bridge.hAutoResponse();
      return a === null || a === undefined ? null : new WebSocketRequestResponsePair(a[0], a[1]);
    },
    getWebSocketAutoResponseTimestamp(ws) {
      requireWebSocket(ws, 'getWebSocketAutoResponseTimestamp');
      const id = internal.webSocketId(ws);
      const t = id === null ? -1 : bridge.hAutoResponseTime(id);
      return t < 0 ? null : new Date(t);
    },
  };
  for (const name of ['setHibernatableWebSocketEventTimeout', 'getHibernatableWebSocketEventTimeout']) {
    stateMethods[name] = () => { throw internal.unsupported('ctx.' + name + '()'); };
  }
  internal.webSocketState = stateMethods;

  // A hibernatable socket's event (WebSocketEvents.java): kind 1 text, 2 binary, 3 close, 4 error.
  internal.dispatchWebSocketEvent = function (event, id, kind, value, code, reason) {
    let result;
    try {
      const target = internal.cellTarget();
      const ws = internal.hibernatedWebSocket(id);
      if (kind === 3) {
        byId.delete(id);
        if (typeof target.webSocketClose === 'function') result = target.webSocketClose(ws, code, reason, code !== 1006);
      } else if (kind === 4) {
        if (typeof target.webSocketError === 'function') result = target.webSocketError(ws, new Error(value));
      } else {
        if (typeof target.webSocketMessage !== 'function') {
          throw new TypeError(target.constructor.name + ' has no webSocketMessage() handler for its hibernatable WebSocket.');
        }
        result = target.webSocketMessage(ws, kind === 1 ? value : copyBuffer(value));
      }
    } catch (e) {
      event.fail(...internal.errorParts(e));
      return;
    }
    Promise.resolve(result).then(() => event.done(), (e) => event.fail(...internal.errorParts(e)));
  };

  internal.defineGlobal('WebSocket', WebSocket);
  internal.defineGlobal('WebSocketPair', WebSocketPair);
  internal.defineGlobal('WebSocketRequestResponsePair', WebSocketRequestResponsePair);
  internal.defineGlobal('MessageEvent', MessageEvent);
  internal.defineGlobal('CloseEvent', CloseEvent);
  internal.defineGlobal('ErrorEvent', ErrorEvent);
});
