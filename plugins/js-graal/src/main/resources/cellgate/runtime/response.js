// Response.
(function (host, internal) {
  'use strict';
  const NULL_BODY = [101, 204, 205, 304];
  const REDIRECT = [301, 302, 303, 307, 308];
  const BARE = Symbol('bare');

  class Response {
    #status;
    #statusText;
    #headers;
    #body;
    #type = 'default';
    #url = '';
    #redirected = false;
    #webSocket = null;

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
      this.#status = status;
      this.#statusText = statusText;
      this.#headers = new Headers(init.headers);
      const [state, type] = internal.extractBody(body);
      if (state.source !== null && NULL_BODY.includes(status)) {
        throw new TypeError('Response with null body status (101, 204, 205, or 304) cannot have a body.');
      }
      if (type !== null && !this.#headers.has('content-type')) this.#headers.set('content-type', type);
      this.#body = state;
      this.#webSocket = webSocket;
    }
    get status() { return this.#status; }
    get statusText() { return this.#statusText; }
    get ok() { return this.#status >= 200 && this.#status <= 299; }
    get headers() { return this.#headers; }
    get type() { return this.#type; }
    get url() { return this.#url; }
    get redirected() { return this.#redirected; }
    get webSocket() { return this.#webSocket; }
    get cf() { return undefined; }
    clone() {
      const r = new Response(BARE);
      r.#status = this.#status;
      r.#statusText = this.#statusText;
      r.#headers = new Headers(this.#headers);
      r.#body = this.#body.clone();
      r.#type = this.#type;
      r.#url = this.#url;
      r.#redirected = this.#redirected;
      r.#webSocket = this.#webSocket;
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
      internal.headersGuard(r.#headers, 'immutable');
      return r;
    }
    static error() {
      const r = new Response(null, { status: 200 });
      r.#status = 0;
      r.#type = 'error';
      internal.headersGuard(r.#headers, 'immutable');
      return r;
    }
    static {
      internal.responseBody = (r) => r.#body;
      // [status, statusText, headerLines, bodyKind, value, offset, length] for the host.
      internal.responseToHost = (r) => {
        if (r.#type === 'error') throw new TypeError('Response.error() cannot be returned from a Worker.');
        if (r.#webSocket !== null) {
          // kind 4 (BodyArgs.WEBSOCKET): the host gets the end and connects it to the client.
          return [r.#status, r.#statusText, internal.headersToLines(r.#headers), 4, internal.webSocketForResponse(r.#webSocket), 0, 0];
        }
        const b = r.#body.toHost();
        return [r.#status, r.#statusText, internal.headersToLines(r.#headers), b[0], b[1], b[2], b[3]];
      };
      internal.responseFromHost = (status, statusText, headerLines, body, url, redirected, webSocketHandle) => {
        const r = new Response(BARE);
        r.#status = status;
        r.#statusText = statusText || '';
        r.#headers = internal.headersFromLines(headerLines, 'immutable');
        r.#body = body;
        r.#url = url || '';
        r.#redirected = !!redirected;
        r.#webSocket = webSocketHandle === undefined || webSocketHandle === null ? null : internal.webSocketFromHandle(webSocketHandle);
        return r;
      };
    }
  }
  internal.mixinBody(Response, internal.responseBody);
  internal.defineGlobal('Response', Response);
});
