// Request.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kUrl = Symbol('Request.url');
  const kMethod = Symbol('Request.method');
  const kHeaders = Symbol('Request.headers');
  const kBody = Symbol('Request.body');
  const kRedirect = Symbol('Request.redirect');
  const kSignal = Symbol('Request.signal');
  const kCf = Symbol('Request.cf');
  // request.cf of a request from the host, as the gateway's JSON, until the Worker first reads it:
  // parsing and freezing it on every request cost /hello ~6% (bench/RESULTS.md section P).
  const kCfJson = Symbol('Request.cfJson');
  function cfOf(r) {
    const json = r[kCfJson];
    if (json !== undefined) {
      r[kCfJson] = undefined;
      r[kCf] = Object.freeze(JSON.parse(json)); // frozen, as workerd's
    }
    return r[kCf];
  }
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
    // workerd answers a method that is not a token ('BAD METHOD') as it answers an unknown one
    if (!TOKEN.test(m)) throw new TypeError('Invalid HTTP method string: ' + m);
    const upper = m.toUpperCase();
    if (!KNOWN.includes(upper)) throw new TypeError('Invalid HTTP method string: ' + m);
    return upper;
  }

  class Request {
    [kUrl];
    [kMethod];
    [kHeaders];
    [kBody];
    [kRedirect];
    [kSignal];
    [kCf];
    [kCfJson];

    constructor(input, init = {}) {
      if (input === BARE) return;
      if (arguments.length === 0) throw new TypeError("Failed to construct 'Request': 1 argument required, but only 0 present.");
      init = init === null || init === undefined ? {} : init;
      const from = input instanceof Request ? input : null;
      if (from) {
        this[kUrl] = from[kUrl];
        this[kMethod] = from[kMethod];
        this[kRedirect] = from[kRedirect];
        this[kSignal] = from[kSignal];
        this[kCf] = cfOf(from);
      } else {
        let u;
        try { u = new (internal.builtin('URL'))(String(input)); } catch { throw new TypeError('Invalid URL: ' + String(input)); }
        this[kUrl] = u.href;
        this[kMethod] = 'GET';
        this[kRedirect] = 'follow';
        this[kSignal] = null;
        this[kCf] = undefined;
      }
      if (init.method !== undefined) this[kMethod] = normalizeMethod(init.method);
      if (init.redirect !== undefined) {
        if (!REDIRECTS.includes(init.redirect)) throw new TypeError('Invalid redirect value, must be one of "follow", "manual" or "error": ' + init.redirect);
        this[kRedirect] = init.redirect;
      }
      if (init.signal !== undefined) this[kSignal] = init.signal;
      if (init.cf !== undefined) this[kCf] = init.cf;
      if (init.cache !== undefined) throw internal.unsupported("The 'cache' field on 'RequestInitializerDict'");
      this[kHeaders] = new Headers(init.headers !== undefined ? init.headers : from ? from.headers : undefined);
      let body = null;
      if (init.body !== undefined && init.body !== null) {
        const [state, type] = internal.extractBody(init.body);
        body = state;
        if (type !== null && !this[kHeaders].has('content-type')) this[kHeaders].set('content-type', type);
      } else if (from && init.body === undefined) {
        body = internal.takeRequestBody(from);
      }
      if (body !== null && body.source !== null && (this[kMethod] === 'GET' || this[kMethod] === 'HEAD')) {
        throw new TypeError('Request with a GET or HEAD method cannot have a body.');
      }
      this[kBody] = body || new internal.BodyState(null);
    }
    get url() { return this[kUrl]; }
    get method() { return this[kMethod]; }
    get headers() { return this[kHeaders]; }
    get redirect() { return this[kRedirect]; }
    get signal() { if (this[kSignal] === null) this[kSignal] = neverAborted(); return this[kSignal]; }
    get cf() { return cfOf(this); }
    get keepalive() { return false; }
    get integrity() { return ''; }
    get cache() { return undefined; }
    clone() {
      if (this[kBody].usedOrLocked) throw new TypeError('Body has already been used. It can only be used once. Use tee() first if you need to read it twice.');
      const r = new Request(this[kUrl], { method: this[kMethod], headers: this[kHeaders], redirect: this[kRedirect], signal: this[kSignal] || undefined, cf: cfOf(this) });
      r[kBody] = this[kBody].clone();
      return r;
    }
    static {
      internal.requestBody = (r) => r[kBody];
      internal.takeRequestBody = (r) => {
        if (r[kBody].usedOrLocked) throw new TypeError('Cannot reconstruct a Request with a used body.');
        const b = r[kBody];
        r[kBody] = new internal.BodyState(b.source);
        b.used = true;
        r[kBody].used = true;
        return new internal.BodyState(b.source);
      };
      // A request arriving from the host: headers stay one string until the Worker reads them.
      // cfJson: request.cf of a client's request (the gateway's RequestCf), else null/undefined.
      internal.requestFromHost = (method, url, headerLines, bodyKind, body, cfJson) => {
        const r = new Request(BARE);
        r[kUrl] = url;
        r[kMethod] = method;
        r[kHeaders] = internal.headersFromLines(headerLines, 'immutable');
        r[kBody] = internal.hostBody(bodyKind, body);
        r[kRedirect] = 'manual';
        r[kSignal] = null;
        r[kCf] = undefined;
        r[kCfJson] = cfJson === undefined || cfJson === null ? undefined : cfJson; // parsed on first read (cfOf)
        return r;
      };
      internal.requestSignalIfAny = (r) => r[kSignal];
    }
  }
  internal.mixinBody(Request, internal.requestBody);
  internal.defineGlobal('Request', Request);
});
