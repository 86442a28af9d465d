// Outbound fetch() through the node's Vert.x HTTP client (OutboundFetch.java), with redirects,
// AbortSignal and a streamed response body.
(function (host, internal) {
  'use strict';
  const NULL_BODY = [101, 204, 205, 304];
  // Cloudflare's request.cf options that change how its edge fetches (RequestInitCfProperties):
  // none has a counterpart on a node, so each is refused by name rather than ignored. The
  // properties of an incoming request's cf (country, httpProtocol...) are ignored on a subrequest,
  // as on Cloudflare, so fetch(request) of the incoming request works.
  const CF_OPTIONS = ['cacheEverything', 'cacheKey', 'cacheTags', 'cacheTtl', 'cacheTtlByStatus', 'cacheReserveEligible',
    'cacheDeceptionArmor', 'respectStrongEtag', 'apps', 'image', 'minify', 'mirage', 'polish', 'resolveOverride', 'scrapeShield',
    'webp', 'r2', 'h2Prioritization', 'origin'];
  function checkCf(cf) {
    if (cf === undefined || cf === null || typeof cf !== 'object') return null;
    for (const k of CF_OPTIONS) {
      if (cf[k] !== undefined) {
        return new TypeError("fetch(): the request.cf option '" + k + "' is not supported by cellgate (it configures Cloudflare's edge;"
          + ' a node has none — use the Cache API for caching)');
      }
    }
    return null;
  }

  function fetch(input, init = undefined) {
    let request;
    try {
      request = new Request(input, init);
    } catch (e) {
      return Promise.reject(e);
    }
    const cfError = checkCf(request.cf);
    if (cfError !== null) return Promise.reject(cfError);
    const url = new (internal.builtin('URL'))(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.reject(new TypeError('Fetch API cannot load: ' + request.url));
    }
    const signal = internal.requestSignalIfAny(request);
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    let body;
    try {
      body = internal.requestBody(request).toHost();
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      let responseBody = null;
      const onAbort = () => {
        host.abortFetch(id);
        if (!settled) { settled = true; reject(signal.reason); }
        if (responseBody) internal.rsError(responseBody, signal.reason);
      };
      const id = host.fetch(request.method, request.url, internal.headersToLines(request.headers), body[0], body[1], body[2], body[3],
        request.redirect, (status, statusText, headerLines, finalUrl, redirected, stream) => {
          if (status < 0) {
            host.fetchDone(id);
            if (signal) signal.removeEventListener('abort', onAbort);
            // workerd rejects a failed connection with a plain Error, not the Fetch standard's TypeError;
            // -2 is a destination the node's egress policy refused (the message names it and the setting).
            if (!settled) { settled = true; reject(new Error(status === -2 ? statusText : 'Network connection lost: ' + statusText)); }
            return;
          }
          if (settled) { stream.cancel(); return; }
          settled = true;
          let state;
          if (NULL_BODY.includes(status) || request.method === 'HEAD') {
            stream.cancel();
            state = new internal.BodyState(null);
          } else {
            responseBody = internal.streamFromHost(stream);
            state = new internal.BodyState(responseBody);
          }
          if (!signal) host.fetchDone(id);
          resolve(internal.responseFromHost(status, statusText, headerLines, state, finalUrl, redirected));
        });
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  internal.defineGlobal('fetch', fetch);
});
