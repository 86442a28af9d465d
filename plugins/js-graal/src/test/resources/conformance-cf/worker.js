// The request.cf conformance fixture. miniflare gives every request a fixed cf object (its made-up
// colo); cellgate gives what the node knows plus the fields its CELLD_CF_HEADERS names
// (EdgeApiConformanceTest sets the 'cloudflare' preset and sends those headers). So the cases compare
// what must agree — the shape, the types of the fields both have, how cf travels with Request
// objects — and the cases marked 'differs' in cases.json show what cannot.
const types = (cf, keys) => Object.fromEntries(keys.map((k) => [k, typeof cf[k]]));
const CASES = {
  'cf-shape': (req) => [typeof req.cf, Object.isFrozen(req.cf), req.cf.httpProtocol, typeof req.cf.httpProtocol],
  'cf-geo-types': (req) => types(req.cf, ['country', 'city', 'continent', 'latitude', 'longitude', 'region', 'regionCode', 'postalCode',
    'metroCode', 'timezone']),
  'cf-travels': (req) => [typeof new Request('https://x.test/').cf, JSON.stringify(new Request('https://x.test/', { cf: { cacheTtl: 5 } }).cf)],
  'cf-copied': (req) => { const copy = new Request(req); return copy.cf === undefined ? 'none' : copy.cf.httpProtocol; },
  'cf-cloned': (req) => req.clone().cf.httpProtocol,
  'cf-not-writable': (req) => { try { req.cf.country = 'XX'; } catch (x) { return 'threw ' + x.constructor.name; } return req.cf.country === 'XX' ? 'written' : 'ignored'; },
  'cf-keys': (req) => Object.keys(req.cf).sort(),
  'cf-fetch-option': async () => {
    try {
      const r = await fetch('http://127.0.0.1:9/', { cf: { cacheTtl: 5 } });
      return ['status', r.status];
    } catch (x) {
      return [x.constructor.name, x.message];
    }
  },
};
export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.split('/')[2];
    const f = CASES[name];
    if (f === undefined) return new Response('no case ' + name, { status: 404 });
    try {
      return Response.json(await f(request));
    } catch (x) {
      return new Response('ERR ' + x.constructor.name + ': ' + x.message);
    }
  },
};
