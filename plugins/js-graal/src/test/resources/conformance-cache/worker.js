// The Cache API conformance fixture: the same bundle runs on workerd (miniflare, whose local cache
// is the reference) and on cellgate, and EdgeApiConformanceTest compares the answers. GET /case/<name>
// runs CASES[name] and answers one JSON line per probe. Every case uses its own keys, since the
// cache outlives a request. A matched response is shown as [status, statusText, headers, body]
// with the value of `date` (the time of the put) left out.
const c = () => caches.default;
const u = (name, p = '') => 'https://cache.test/' + name + '/' + p;
const cc = (v, more = {}) => ({ headers: { 'cache-control': v, ...more } });
async function show(r) {
  if (r === undefined) return 'undefined';
  const headers = [...r.headers].map(([k, v]) => (k === 'date' ? [k, '(date)'] : [k, v.replace(/boundary=[^;]*/, 'boundary=(b)')]));
  const body = (await r.text()).replace(/--[a-z]+-boundary-[0-9a-f-]+/g, '--(b)');
  return [r.status, r.statusText, headers, body];
}
async function probe(log, name, f) {
  try {
    log.push([name, await f()]);
  } catch (x) {
    log.push([name, 'ERR ' + (x && x.constructor ? x.constructor.name : typeof x) + ': ' + (x && x.message)]);
  }
}
const putMatch = (n, init, body = 'x') => async () => {
  await c().put(u(n), new Response(body, init));
  return show(await c().match(u(n)));
};

const CASES = {
  'miss': async (log) => {
    await probe(log, 'unknown url', async () => show(await c().match(u('miss', 'nothing'))));
    await probe(log, 'put resolves', async () => String(await c().put(u('miss', 'p'), new Response('x', cc('max-age=60')))));
  },
  'put-match': async (log) => {
    await probe(log, 'put', async () => String(await c().put(u('pm'), new Response('body a', cc('max-age=60', { 'x-h': '1' })))));
    await probe(log, 'match url', async () => show(await c().match(u('pm'))));
    await probe(log, 'match request', async () => show(await c().match(new Request(u('pm')))));
    await probe(log, 'match twice', async () => [await (await c().match(u('pm'))).text(), await (await c().match(u('pm'))).text()]);
  },
  'match-methods': async (log) => {
    await c().put(u('mm'), new Response('m', cc('max-age=60')));
    await probe(log, 'head', async () => show(await c().match(new Request(u('mm'), { method: 'HEAD' }))));
    await probe(log, 'post', async () => show(await c().match(new Request(u('mm'), { method: 'POST' }))));
    await probe(log, 'post ignoreMethod', async () => show(await c().match(new Request(u('mm'), { method: 'POST' }), { ignoreMethod: true })));
  },
  'put-non-get': async (log) => {
    await probe(log, 'post', async () => String(await c().put(new Request(u('png'), { method: 'POST' }), new Response('x'))));
    await probe(log, 'head', async () => String(await c().put(new Request(u('png'), { method: 'HEAD' }), new Response('x'))));
  },
  'cache-control-refusals': async (log) => {
    await probe(log, 'no-store', putMatch('ccr-ns', cc('no-store')));
    await probe(log, 'private', putMatch('ccr-pr', cc('private, max-age=60')));
    await probe(log, 'max-age=0', putMatch('ccr-m0', cc('max-age=0')));
    await probe(log, 'no-cache', putMatch('ccr-nc', cc('no-cache, max-age=60')));
    await probe(log, 'none', putMatch('ccr-none', {}));
    await probe(log, 'public only', putMatch('ccr-po', cc('public')));
  },
  'cache-control-freshness': async (log) => {
    await probe(log, 's-maxage wins', putMatch('ccf-sm', cc('max-age=0, s-maxage=60')));
    await probe(log, 'max-age', putMatch('ccf-ma', cc('max-age=120')));
    await probe(log, 'stale-while-revalidate', putMatch('ccf-swr', cc('max-age=0, stale-while-revalidate=60')));
    await probe(log, 'last-modified heuristic', putMatch('ccf-lm', { headers: { 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' } }));
    await probe(log, 'age consumes max-age', putMatch('ccf-age', cc('max-age=60', { age: '100' })));
    await probe(log, 'age within max-age', putMatch('ccf-age2', cc('max-age=60', { age: '30' })));
  },
  'expires': async (log) => {
    await probe(log, 'past', putMatch('ex-p', { headers: { expires: 'Thu, 01 Jan 1970 00:00:00 GMT' } }));
    await probe(log, 'future', putMatch('ex-f', { headers: { expires: 'Thu, 01 Jan 2099 00:00:00 GMT' } }));
    await probe(log, 'invalid', putMatch('ex-i', { headers: { expires: 'soon' } }));
    await probe(log, 'max-age over expires', putMatch('ex-m', cc('max-age=60', { expires: 'Thu, 01 Jan 1970 00:00:00 GMT' })));
  },
  'set-cookie': async (log) => {
    await probe(log, 'refused', putMatch('sc-r', cc('max-age=60', { 'set-cookie': 'a=b' })));
    await probe(log, 'private=set-cookie', putMatch('sc-p', cc('max-age=60, private=set-cookie', { 'set-cookie': 'a=b' })));
  },
  'vary': async (log) => {
    await probe(log, 'star', async () => String(await c().put(u('v-s'), new Response('x', cc('max-age=60', { vary: '*' })))));
    await probe(log, 'star in list', async () => String(await c().put(u('v-l'), new Response('x', cc('max-age=60', { vary: 'Accept, *' })))));
    await probe(log, 'accept', async () => {
      await c().put(new Request(u('v-a'), { headers: { accept: 'text/html' } }), new Response('x', cc('max-age=60', { vary: 'Accept' })));
      return [await show(await c().match(u('v-a'))), await show(await c().match(new Request(u('v-a'), { headers: { accept: 'text/html' } })))];
    });
  },
  'statuses': async (log) => {
    await probe(log, '206', async () => String(await c().put(u('st-206'), new Response('x', { status: 206 }))));
    for (const s of [404, 500, 503, 301, 302, 410, 418]) {
      const init = cc('max-age=60', s >= 300 && s < 400 ? { location: '/x' } : {});
      await probe(log, String(s), putMatch('st-' + s, { ...init, status: s }, s >= 300 && s < 400 ? null : 'x'));
    }
    await probe(log, '204', putMatch('st-204', { ...cc('max-age=60'), status: 204 }, null));
    await probe(log, '200 no body', putMatch('st-nb', cc('max-age=60'), null));
  },
  'ranges': async (log) => {
    await c().put(u('rg'), new Response('0123456789', cc('max-age=60')));
    const range = (r) => async () => show(await c().match(new Request(u('rg'), { headers: { range: r } })));
    for (const r of ['bytes=2-4', 'bytes=-3', 'bytes=7-', 'bytes=5-100', 'bytes=0-0', 'bytes=-0', 'bytes=-20', 'bytes=', ' bytes = 1 - 2 ']) {
      await probe(log, r, range(r));
    }
  },
  'ranges-unsatisfiable': async (log) => {
    await c().put(u('rgu'), new Response('0123456789', cc('max-age=60')));
    for (const r of ['bytes=20-30', 'bytes=5-2', 'items=1-2', 'bytes=a-b', 'bytes=10-']) {
      await probe(log, r, async () => show(await c().match(new Request(u('rgu'), { headers: { range: r } }))));
    }
  },
  'ranges-multi': async (log) => {
    await c().put(u('rgm'), new Response('0123456789', cc('max-age=60')));
    await probe(log, 'two', async () => show(await c().match(new Request(u('rgm'), { headers: { range: 'bytes=0-1,3-4' } }))));
  },
  'if-none-match': async (log) => {
    await c().put(u('inm'), new Response('x', cc('max-age=60', { etag: '"v1"' })));
    await c().put(u('inm-w'), new Response('x', cc('max-age=60', { etag: 'W/"w"' })));
    const cond = (k, v) => async () => show(await c().match(new Request(u(k), { headers: { 'if-none-match': v } })));
    await probe(log, 'same', cond('inm', '"v1"'));
    await probe(log, 'other', cond('inm', '"v2"'));
    await probe(log, 'list', cond('inm', '"a", "v1"'));
    await probe(log, 'star', cond('inm', '*'));
    await probe(log, 'weak vs weak', cond('inm-w', 'W/"w"'));
    await probe(log, 'strong vs weak', cond('inm-w', '"w"'));
    await probe(log, 'with range', async () => show(await c().match(new Request(u('inm'), { headers: { 'if-none-match': '"v1"', range: 'bytes=0-0' } }))));
  },
  'if-modified-since': async (log) => {
    await c().put(u('ims'), new Response('x', cc('max-age=60', { 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' })));
    const cond = (v) => async () => show(await c().match(new Request(u('ims'), { headers: { 'if-modified-since': v } })));
    await probe(log, 'equal', cond('Wed, 21 Oct 2015 07:28:00 GMT'));
    await probe(log, 'later', cond('Thu, 22 Oct 2015 07:28:00 GMT'));
    await probe(log, 'earlier', cond('Tue, 20 Oct 2015 07:28:00 GMT'));
    await probe(log, 'not a date', cond('yesterday'));
  },
  'delete': async (log) => {
    await c().put(u('del'), new Response('x', cc('max-age=60')));
    await probe(log, 'first', async () => c().delete(u('del')));
    await probe(log, 'second', async () => c().delete(u('del')));
    await probe(log, 'match after', async () => show(await c().match(u('del'))));
    await c().put(u('del-p'), new Response('x', cc('max-age=60')));
    await probe(log, 'post', async () => c().delete(new Request(u('del-p'), { method: 'POST' })));
    await probe(log, 'post ignoreMethod', async () => c().delete(new Request(u('del-p'), { method: 'POST' }), { ignoreMethod: true }));
  },
  'named-caches': async (log) => {
    await probe(log, 'separate', async () => {
      const n = await caches.open('named');
      await n.put(u('nc'), new Response('named', cc('max-age=60')));
      return [await show(await n.match(u('nc'))), await show(await c().match(u('nc'))), await show(await (await caches.open('named')).match(u('nc'))),
        await show(await (await caches.open('other')).match(u('nc')))];
    });
    await probe(log, 'default is not "default"', async () => {
      await c().put(u('nc-d'), new Response('d', cc('max-age=60')));
      return show(await (await caches.open('default')).match(u('nc-d')));
    });
    await probe(log, 'open without name', async () => String(await caches.open()));
  },
  'keys': async (log) => {
    await c().put(u('k', 'q?x=1'), new Response('q', cc('max-age=60')));
    await probe(log, 'same query', async () => show(await c().match(u('k', 'q?x=1'))));
    await probe(log, 'other query', async () => show(await c().match(u('k', 'q?x=2'))));
    await probe(log, 'fragment ignored', async () => show(await c().match(u('k', 'q?x=1#frag'))));
    await probe(log, 'cf.cacheKey', async () => {
      await c().put(new Request(u('k', 'ck'), { cf: { cacheKey: 'custom-key' } }), new Response('ck', cc('max-age=60')));
      return [await show(await c().match(u('k', 'ck'))), await show(await c().match(new Request(u('k', 'other'), { cf: { cacheKey: 'custom-key' } })))];
    });
  },
  'bodies': async (log) => {
    await probe(log, 'body used', async () => { const r = new Response('x', cc('max-age=60')); await r.text(); return String(await c().put(u('b-u'), r)); });
    await probe(log, 'stream body', async () => {
      const body = new ReadableStream({ start(ctl) { ctl.enqueue(new TextEncoder().encode('str')); ctl.enqueue(new TextEncoder().encode('eam')); ctl.close(); } });
      await c().put(u('b-s'), new Response(body, cc('max-age=60')));
      return show(await c().match(u('b-s')));
    });
    await probe(log, 'bytes body', putMatch('b-b', cc('max-age=60'), new Uint8Array([104, 105])));
    await probe(log, 'replaced', async () => {
      await c().put(u('b-r'), new Response('one', cc('max-age=60')));
      await c().put(u('b-r'), new Response('two', cc('max-age=60')));
      return show(await c().match(u('b-r')));
    });
  },
  'stored-headers': async (log) => {
    await probe(log, 'hop-by-hop and age', putMatch('sh', { status: 200, statusText: 'Fine', headers: { 'cache-control': 'public, max-age=60', connection: 'keep-alive',
      'keep-alive': 'timeout=5', 'x-multi': 'a', 'content-type': 'text/html', age: '30', 'transfer-encoding': 'chunked' } }));
    await probe(log, 'connection names a header', putMatch('sh2', cc('max-age=60', { connection: 'x-drop', 'x-drop': '1', 'x-keep': '2' })));
  },
  'authorization': async (log) => {
    const put = (n, v) => async () => {
      await c().put(new Request(u(n), { headers: { authorization: 'Bearer t' } }), new Response('x', cc(v)));
      return show(await c().match(u(n)));
    };
    await probe(log, 'max-age only', put('au-1', 'max-age=60'));
    await probe(log, 'public', put('au-2', 'public, max-age=60'));
    await probe(log, 's-maxage', put('au-3', 's-maxage=60'));
  },
  'expiry': async (log) => {
    await c().put(u('exp'), new Response('x', cc('max-age=1')));
    await probe(log, 'fresh', async () => show(await c().match(u('exp'))));
    await new Promise((r) => setTimeout(r, 1600));
    await probe(log, 'after 1.6 s', async () => show(await c().match(u('exp'))));
    await probe(log, 'delete expired', async () => c().delete(u('exp')));
  },
  'not-implemented': async (log) => {
    for (const m of ['keys', 'matchAll', 'add', 'addAll']) await probe(log, 'Cache.' + m, async () => String(await c()[m](u('ni'))));
    for (const m of ['has', 'delete', 'keys', 'match']) await probe(log, 'caches.' + m, async () => String(await caches[m](u('ni'))));
  },
  'argument-checks': async (log) => {
    const tries = [['put()', () => c().put()], ['put(url)', () => c().put(u('ac'))], ['put(url, string)', () => c().put(u('ac'), 'str')],
      ['match()', () => c().match()], ['delete()', () => c().delete()], ['put(post)', () => c().put(new Request(u('ac'), { method: 'POST' }), new Response('x'))]];
    for (const [name, f] of tries) {
      let how;
      try {
        const p = f();
        how = 'returned ' + Object.prototype.toString.call(p);
        await p;
        how += ', resolved';
      } catch (x) {
        how = (how === undefined ? 'threw ' : how + ', rejected ') + x.constructor.name + ': ' + x.message;
      }
      log.push([name, how]);
    }
  },
  'types': async (log) => {
    await probe(log, 'tags', async () => [Object.prototype.toString.call(c()), Object.prototype.toString.call(caches), c() === caches.default,
      typeof Cache, typeof CacheStorage, (await caches.open('t')) === (await caches.open('t'))]);
    await probe(log, 'new Cache', async () => String(new Cache()));
    await probe(log, 'new CacheStorage', async () => String(new CacheStorage()));
  },
};

export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.split('/')[2];
    const f = CASES[name];
    if (f === undefined) return new Response('no case ' + name, { status: 404 });
    const log = [];
    try {
      await f(log);
    } catch (x) {
      log.push(['case failed', String(x)]);
    }
    return new Response(log.map((l) => JSON.stringify(l)).join('\n'));
  },
};
