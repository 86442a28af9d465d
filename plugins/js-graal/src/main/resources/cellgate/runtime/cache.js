// The Cache API: caches.default and caches.open(name) over the node's cache (host/cache): workerd's
// checks and messages here, the storage rules (Cache-Control, Expires, Set-Cookie...) and the match
// (ranges, 304s, cf-cache-status) in Java. Like a colo's cache it is local to this node.
(function (host, internal) {
  'use strict';
  const kName = Symbol('Cache.name');
  const BARE = Symbol('bare');
  const notType = (method, cls, n, type) => new TypeError("Failed to execute '" + method + "' on '" + cls + "': parameter " + n
    + " is not of type '" + type + "'.");
  const notImplemented = (method, cls) => Promise.reject(new Error("Failed to execute '" + method + "' on '" + cls + "': the method is not implemented."));
  // a matched response carries the reason phrase, as one parsed from HTTP does on workerd
  const REASONS = { 200: 'OK', 203: 'Non-Authoritative Information', 204: 'No Content', 206: 'Partial Content', 300: 'Multiple Choices',
    301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
    404: 'Not Found', 405: 'Method Not Allowed', 410: 'Gone', 414: 'URI Too Long', 416: 'Range Not Satisfiable', 501: 'Not Implemented' };
  let store = null;
  const C = () => (store === null ? (store = host.cache()) : store);

  function toRequest(method, input) {
    if (input === undefined) throw notType(method, 'Cache', 1, 'Request or string');
    return input instanceof Request ? input : new Request(String(input));
  }
  // workerd's cache key: cf.cacheKey when the request has one, else the URL without its fragment
  function keyOf(request) {
    const cf = request.cf;
    if (cf !== undefined && cf !== null && cf.cacheKey !== undefined) return String(cf.cacheKey);
    const u = request.url;
    const hash = u.indexOf('#');
    return hash < 0 ? u : u.slice(0, hash);
  }
  const ignoresMethod = (options) => options !== undefined && options !== null && !!options.ignoreMethod;

  class Cache {
    [kName];
    constructor(token, name) {
      if (token !== BARE) throw new TypeError('Illegal constructor');
      this[kName] = name;
    }
    async match(request, options) {
      const req = toRequest('match', request);
      if (req.method !== 'GET' && !ignoresMethod(options)) return undefined;
      const h = req.headers;
      const m = C().match(this[kName], keyOf(req), h.get('range'), h.get('if-none-match'), h.get('if-modified-since'));
      if (m === null) return undefined;
      const b = m.body();
      const body = b === null ? null : new Uint8Array(new Uint8Array(new ArrayBuffer(b)));
      const headers = [];
      const lines = m.headerLines();
      if (lines !== '') {
        for (const line of lines.split('\n')) {
          const i = line.indexOf(':');
          headers.push([line.slice(0, i), line.slice(i + 1)]);
        }
      }
      const status = m.status();
      return new Response(body, { status, statusText: REASONS[status] || '', headers });
    }
    async put(request, response) {
      const req = toRequest('put', request);
      if (!(response instanceof Response)) throw notType('put', 'Cache', 2, 'Response');
      if (req.method !== 'GET') throw new TypeError('Cannot cache response to non-GET request.');
      if (response.status === 206) throw new TypeError('Cannot cache response to a range request (206 Partial Content).');
      const vary = response.headers.get('vary');
      if (vary !== null && vary.split(',').some((v) => v.trim() === '*')) throw new TypeError("Cannot cache response with 'Vary: *' header.");
      const state = internal.responseBody(response);
      const streamed = state.source !== null && internal.isInstance('ReadableStream', state.source);
      const bytes = new Uint8Array(await response.arrayBuffer());
      C().put(this[kName], keyOf(req), response.status, internal.headersToLines(response.headers), bytes.buffer, bytes.byteOffset,
        bytes.byteLength, req.headers.has('authorization'), !streamed);
      return undefined;
    }
    async delete(request, options) {
      const req = toRequest('delete', request);
      if (req.method !== 'GET' && !ignoresMethod(options)) return false;
      return C().delete(this[kName], keyOf(req));
    }
    keys() { return notImplemented('keys', 'Cache'); }
    matchAll() { return notImplemented('matchAll', 'Cache'); }
    add() { return notImplemented('add', 'Cache'); }
    addAll() { return notImplemented('addAll', 'Cache'); }
    get [Symbol.toStringTag]() { return 'Cache'; }
  }

  const defaultCache = new Cache(BARE, 'default');
  class CacheStorage {
    constructor(token) {
      if (token !== BARE) throw new TypeError('Illegal constructor');
    }
    get default() { return defaultCache; }
    async open(name) {
      if (name === undefined) throw notType('open', 'CacheStorage', 1, 'string');
      return new Cache(BARE, 'named:' + String(name)); // a new object each time, the same store, as workerd
    }
    has() { return notImplemented('has', 'CacheStorage'); }
    delete() { return notImplemented('delete', 'CacheStorage'); }
    keys() { return notImplemented('keys', 'CacheStorage'); }
    match() { return notImplemented('match', 'CacheStorage'); }
    get [Symbol.toStringTag]() { return 'CacheStorage'; }
  }

  internal.defineGlobal('Cache', Cache);
  internal.defineGlobal('CacheStorage', CacheStorage);
  internal.defineGlobal('caches', new CacheStorage(BARE));
});
