// env.ASSETS (binding type "assets"): a fetcher whose fetch() answers as the deployment's static
// assets do. The host (runtime-core bindings/AssetsProvider) routes; this turns its answer into a Response.
(function (host, internal) {
  'use strict';
  const NULL_BODY = new Set([101, 204, 205, 304]);
  return function (target, settings, name) {
    return Object.freeze({
      async fetch(input, init) {
        const req = new Request(input, init);
        const h = req.headers;
        const answer = await internal.hostPromise(target.fetch(req.method, req.url, h.get('if-none-match'),
          h.has('range') || h.has('authorization')));
        const status = answer.status();
        const body = NULL_BODY.has(status) || req.method === 'HEAD' ? null : new Uint8Array(new ArrayBuffer(answer.body()));
        return new Response(body, { status, headers: JSON.parse(answer.headers()) });
      },
    });
  };
});
