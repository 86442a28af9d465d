// Request.
(function (host, internal) {
  'use strict';
  // The methods workerd accepts (case-insensitively); anything else is a TypeError there too.
  const KNOWN = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'PURGE', 'TRACE', 'CONNECT', 'COPY', 'LOCK', 'MKCOL',
    'MOVE', 'PROPFIND', 'PROPPATCH', 'SEARCH', 'UNLOCK', 'ACL', 'REPORT', 'MKACTIVITY', 'CHECKOUT', 'MERGE', 'M-SEARCH', 'NOTIFY',
    'SUBSCRIBE', 'UNSUBSCRIBE'];
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const REDIRECTS = ['follow', 'manual', 'error'];
  const neverAborted = () => internal.newAbortSignal();
  const BARE = Symbol('bare');

  function normalizeMethod(m) {
    m = String(m);
    if (!TOKEN.test(m)) throw new TypeError("'" + m + "' is not a valid HTTP method.");
    const upper = m.toUpperCase();
    if (!KNOWN.includes(upper)) throw new TypeError('Invalid HTTP method string: ' + m);
    return upper;
  }

  class Request {
    #url;
    #method;
    #headers;
    #body;
    #redirect;
    #signal;
    #cf;

    constructor(input, init = {}) {
      if (input === BARE) return;
      if (arguments.length === 0) throw new TypeError("Failed to construct 'Request': 1 argument required, but only 0 present.");
      init = init === null || init === undefined ? {} : init;
      const from = input instanceof Request ? input : null;
      if (from) {
        this.#url = from.#url;
        this.#method = from.#method;
        this.#redirect = from.#redirect;
        this.#signal = from.#signal;
        this.#cf = from.#cf;
      } else {
        let u;
        try { u = new (internal.builtin('URL'))(String(input)); } catch { throw new TypeError('Invalid URL: ' + String(input)); }
        this.#url = u.href;
        this.#method = 'GET';
        this.#redirect = 'follow';
        this.#signal = null;
        this.#cf = undefined;
      }
      if (init.method !== undefined) this.#method = normalizeMethod(init.method);
      if (init.redirect !== undefined) {
        if (!REDIRECTS.includes(init.redirect)) throw new TypeError('Invalid redirect value, must be one of "follow", "manual" or "error": ' + init.redirect);
        this.#redirect = init.redirect;
      }
      if (init.signal !== undefined) this.#signal = init.signal;
      if (init.cf !== undefined) this.#cf = init.cf;
      if (init.cache !== undefined) throw internal.unsupported("The 'cache' field on 'RequestInitializerDict'");
      this.#headers = new Headers(init.headers !== undefined ? init.headers : from ? from.headers : undefined);
      let body = null;
      if (init.body !== undefined && init.body !== null) {
        const [state, type] = internal.extractBody(init.body);
        body = state;
        if (type !== null && !this.#headers.has('content-type')) this.#headers.set('content-type', type);
      } else if (from && init.body === undefined) {
        body = internal.takeRequestBody(from);
      }
      if (body !== null && body.source !== null && (this.#method === 'GET' || this.#method === 'HEAD')) {
        throw new TypeError('Request with a GET or HEAD method cannot have a body.');
      }
      this.#body = body || new internal.BodyState(null);
    }
    get url() { return this.#url; }
    get method() { return this.#method; }
    get headers() { return this.#headers; }
    get redirect() { return this.#redirect; }
    get signal() { if (this.#signal === null) this.#signal = neverAborted(); return this.#signal; }
    get cf() { return this.#cf; }
    get keepalive() { return false; }
    get integrity() { return ''; }
    get cache() { return undefined; }
    clone() {
      if (this.#body.usedOrLocked) throw new TypeError('Body has already been used. It can only be used once. Use tee() first if you need to read it twice.');
      const r = new Request(this.#url, { method: this.#method, headers: this.#headers, redirect: this.#redirect, signal: this.#signal || undefined, cf: this.#cf });
      r.#body = this.#body.clone();
      return r;
    }
    static {
      internal.requestBody = (r) => r.#body;
      internal.takeRequestBody = (r) => {
        if (r.#body.usedOrLocked) throw new TypeError('Cannot reconstruct a Request with a used body.');
        const b = r.#body;
        r.#body = new internal.BodyState(b.source);
        b.used = true;
        r.#body.used = true;
        return new internal.BodyState(b.source);
      };
      // A request arriving from the host: headers stay one string until the Worker reads them.
      internal.requestFromHost = (method, url, headerLines, bodyKind, body) => {
        const r = new Request(BARE);
        r.#url = url;
        r.#method = method;
        r.#headers = internal.headersFromLines(headerLines, 'immutable');
        r.#body = internal.hostBody(bodyKind, body);
        r.#redirect = 'manual';
        r.#signal = null;
        r.#cf = undefined;
        return r;
      };
      internal.requestSignalIfAny = (r) => r.#signal;
    }
  }
  internal.mixinBody(Request, internal.requestBody);
  internal.defineGlobal('Request', Request);
});
