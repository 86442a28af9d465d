// Response.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kStatus = Symbol('Response.status');
  const kStatusText = Symbol('Response.statusText');
  const kHeaders = Symbol('Response.headers');
  const kBody = Symbol('Response.body');
  const kType = Symbol('Response.type');
  const kUrl = Symbol('Response.url');
  const kRedirected = Symbol('Response.redirected');
  const kWebSocket = Symbol('Response.webSocket');
  const NULL_BODY = [101, 204, 205, 304];
  const REDIRECT = [301, 302, 303, 307, 308];
  const BARE = Symbol('bare');

  class Response {
    [kStatus];
    [kStatusText];
    [kHeaders];
    [kBody];
    [kType] = 'default';
    [kUrl] = '';
    [kRedirected] = false;
    [kWebSocket] = null;

    constructor(body = null, init = {}) {
      if (body === BARE) return;
      init = init === null || init === undefined ? {} : init;
      const status = init.status === undefined ? 200 : Number(init.status);
      const webSocket = init.webSocket === undefined ? null : init.webSocket;
      if (webSocket !== null && !internal.isWebSocket(webSocket)) {
        throw new TypeError("Failed to construct 'Response': member webSocket is not of type 'WebSocket'.");
      }
      if (webSocket !== null && status !== 101) throw new RangeError('Responses with a WebSocket must have status code 101.');
      if (!Number.isInteger(status) || (status < 200 && webSocket === null) || status > 599) {
        throw new RangeError('Responses may only be constructed with status codes in the range 200 to 599, inclusive.');
      }
      const statusText = init.statusText === undefined ? '' : String(init.statusText);
      if (/[\r\n]/.test(statusText)) throw new TypeError('Invalid statusText.');
      this[kStatus] = status;
      this[kStatusText] = statusText;
      this[kHeaders] = new Headers(init.headers);
      const [state, type] = internal.extractBody(body);
      if (state.source !== null && NULL_BODY.includes(status)) {
        throw new TypeError('Response with null body status (101, 204, 205, or 304) cannot have a body.');
      }
      if (type !== null && !this[kHeaders].has('content-type')) this[kHeaders].set('content-type', type);
      this[kBody] = state;
      this[kWebSocket] = webSocket;
    }
    get status() { return this[kStatus]; }
    get statusText() { return this[kStatusText]; }
    get ok() { return this[kStatus] >= 200 && this[kStatus] <= 299; }
    get headers() { return this[kHeaders]; }
    get type() { return this[kType]; }
    get url() { return this[kUrl]; }
    get redirected() { return this[kRedirected]; }
    get webSocket() { return this[kWebSocket]; }
    get cf() { return undefined; }
    clone() {
      const r = new Response(BARE);
      r[kStatus] = this[kStatus];
      r[kStatusText] = this[kStatusText];
      r[kHeaders] = new Headers(this[kHeaders]);
      r[kBody] = this[kBody].clone();
      r[kType] = this[kType];
      r[kUrl] = this[kUrl];
      r[kRedirected] = this[kRedirected];
      r[kWebSocket] = this[kWebSocket];
      return r;
    }
    static json(data, init = {}) {
      const text = JSON.stringify(data);
      if (text === undefined) throw new TypeError('The data is not JSON serializable.');
      const headers = new Headers(init && init.headers);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response(text, Object.assign({}, init, { headers }));
    }
    static redirect(url, status = 302) {
      if (!REDIRECT.includes(status)) throw new RangeError('Invalid status value ' + status + ' for Response.redirect(), must be one of 301, 302, 303, 307 or 308.');
      let href;
      try { href = new (internal.builtin('URL'))(String(url)).href; } catch { throw new TypeError('Invalid URL: ' + String(url)); }
      const r = new Response(null, { status, headers: { location: href } });
      internal.headersGuard(r[kHeaders], 'immutable');
      return r;
    }
    static error() {
      const r = new Response(null, { status: 200 });
      r[kStatus] = 0;
      r[kType] = 'error';
      internal.headersGuard(r[kHeaders], 'immutable');
      return r;
    }
    static {
      internal.responseBody = (r) => r[kBody];
      // [status, statusText, headerLines, bodyKind, value, offset, length] for the host.
      internal.responseToHost = (r) => {
        if (r[kType] === 'error') throw new TypeError('Response.error() cannot be returned from a Worker.');
        if (r[kWebSocket] !== null) {
          // kind 4 (BodyArgs.WEBSOCKET): the host gets the end and connects it to the client.
          return [r[kStatus], r[kStatusText], internal.headersToLines(r[kHeaders]), 4, internal.webSocketForResponse(r[kWebSocket]), 0, 0];
        }
        const b = r[kBody].toHost();
        return [r[kStatus], r[kStatusText], internal.headersToLines(r[kHeaders]), b[0], b[1], b[2], b[3]];
      };
      internal.responseFromHost = (status, statusText, headerLines, body, url, redirected, webSocketHandle) => {
        const r = new Response(BARE);
        r[kStatus] = status;
        r[kStatusText] = statusText || '';
        r[kHeaders] = internal.headersFromLines(headerLines, 'immutable');
        r[kBody] = body;
        r[kUrl] = url || '';
        r[kRedirected] = !!redirected;
        r[kWebSocket] = webSocketHandle === undefined || webSocketHandle === null ? null : internal.webSocketFromHandle(webSocketHandle);
        return r;
      };
    }
  }
  internal.mixinBody(Response, internal.responseBody);
  internal.defineGlobal('Response', Response);
});
