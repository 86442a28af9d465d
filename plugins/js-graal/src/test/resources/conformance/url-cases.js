// URL and URLSearchParams cases of the conformance fixture.
const json = (v) => Response.json(v);
const parts = (u) => ({ href: u.href, protocol: u.protocol, username: u.username, password: u.password, host: u.host,
  hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin });
const tryHref = (input, base) => { try { return new URL(input, base).href; } catch (e) { return e.name; } };

export const urlCases = {
  'url-parts': () => json(parts(new URL('https://user:pw@Example.COM:8443/a/../b/./c?x=1#frag'))),
  'url-relative': () => {
    const base = 'http://h.test/a/b/c?q#f';
    return json(['../x?y#z', '//other.test/p', '?only', '#hash', '', '/abs', 'd/e', '.', '..', '../../../../up', 'http:rel', 'https:x']
      .map((r) => tryHref(r, base)));
  },
  'url-hosts': () => json(['http://h.test:80/', 'https://h.test:443/x', 'http://h.test:8080', 'http://0x7f.1/', 'http://127.1/',
    'http://[::1]:8080/x', 'http://[2001:db8:0:0:1:0:0:1]/', 'http://[0:0:0:0:0:0:0:0]/', 'http://[::ffff:192.168.0.1]/',
    'http://EXAMPLE.com./', 'ws://h.test:80/', 'wss://h.test:443/', 'ftp://h.test:21/', 'http://999999999999/', 'http://1.2.3.256/',
    'http://a b/', 'http://h.test:99999/', 'http://%41.com/'].map((u) => tryHref(u))),
  'url-encoding': () => json(['http://h.test/a b/ü?q=a b&ü=1#f g', "http://h.test/'\"<>`{}^|", "http://h.test/?'\"<>`",
    'http://h.test/%zz/%41', 'http://h.test/a%2e%2E/b', 'http://h.test/\\back\\slash', 'http://us er:p@ss@h.test/',
    'foo://h.test/a b?c d#e f'].map((u) => tryHref(u))),
  'url-non-special': () => json(['mailto:a@b.c', 'data:text/plain,hi there', 'foo://host/p?q', 'foo:/p/../q', 'urn:isbn:1234',
    'javascript:alert(1)', 'blob:https://a.test/uuid'].map((u) => { const x = new URL(u); return [x.href, x.protocol, x.host, x.pathname, x.origin]; })),
  'url-setters': () => {
    const u = new URL('http://h.test/p?q=1#h');
    const log = [];
    u.pathname = '/x y'; log.push(u.href);
    u.search = 'a=1&b=c d'; log.push(u.href);
    u.hash = 'frag ment'; log.push(u.href);
    u.port = '8080'; log.push(u.href);
    u.port = '80'; log.push(u.href);
    u.hostname = 'other.test'; log.push(u.href);
    u.host = 'third.test:9090'; log.push(u.href);
    u.protocol = 'https'; log.push(u.href);
    u.protocol = 'mailto'; log.push(u.href);
    u.username = 'me'; u.password = 'secret'; log.push(u.href);
    u.search = ''; u.hash = ''; log.push(u.href);
    u.href = 'http://new.test/'; log.push(u.href);
    return json(log);
  },
  'url-invalid': () => json({
    canParse: [URL.canParse('http://'), URL.canParse('foo'), URL.canParse('/x', 'http://h.test'), URL.canParse('http://h.test')],
    ctor: (() => { try { new URL('x'); return 'no error'; } catch (e) { return e.name; } })(),
    relativeNoBase: tryHref('/path'), string: String(new URL('http://h.test/a')), json: JSON.stringify({ u: new URL('http://h.test/') }),
  }),
  'url-search-params': () => {
    const p = new URLSearchParams('?a=1&b=2&a=3&c=%20x+y&d&=e');
    const before = { getAll: p.getAll('a'), get: p.get('c'), d: p.get('d'), empty: p.get(''), missing: p.get('z'), size: p.size };
    p.append('e', 'a b&c=d/é');
    p.delete('b');
    p.set('a', 'only');
    const s1 = p.toString();
    p.sort();
    return json({ before, s1, sorted: p.toString(), has: [p.has('a'), p.has('a', 'only'), p.has('a', 'nope')],
      fromObj: new URLSearchParams({ x: '1', y: 'two' }).toString(), fromPairs: new URLSearchParams([['k', 'v'], ['k', 'w']]).toString(),
      entries: [...new URLSearchParams('z=1&y=2')], special: new URLSearchParams({ q: '*-._~!\'()' }).toString() });
  },
  'url-search-params-link': () => {
    const u = new URL('http://h.test/p?x=1');
    u.searchParams.set('y', 'a b');
    u.searchParams.append('x', '2');
    const after = u.href;
    u.search = '?z=9';
    return json({ after, linked: u.searchParams.get('z'), href: u.href });
  },
};
