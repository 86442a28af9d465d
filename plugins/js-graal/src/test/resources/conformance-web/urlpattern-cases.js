// URLPattern cases of the conformance-web fixture (the standard's URLPattern: urlpattern_standard).
import { errOf, tag } from './util.js';

const COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];
const show = (...args) => errOf(() => { const p = new URLPattern(...args); return COMPONENTS.map((c) => p[c]).join(' | ') + ' | re=' + p.hasRegExpGroups; });

export const urlPatternCases = {
  'urlpattern-constructor': () => [
    show('https://example.com/books/:id'), show('/books/:id', 'https://example.com'), show({ pathname: '/books/:id' }), show(), show({}),
    show('https://*.example.com/*'), show('http{s}?://:host/:path*'), show('/foo/(\\d+)', 'https://a.test'), show('https://example.com/:a?/:b+/:c*'),
    show('https://example.com/foo?q=:q#:h'), show({ hostname: '{:sub.}?example.com' }), show('https://example.com/:id(\\d+)'),
    show('https://EXAMPLE.com/Path', { ignoreCase: true }), show({ protocol: 'https', hostname: 'ex.com', port: '8080' }),
    show('data\\:foo'), show({ baseURL: 'https://ex.com/a/b', pathname: 'c' }), show({ pathname: '/a', baseURL: 'https://ex.com' }),
    show('https://ex.com:80/'), show('file:///a/b'), show({ search: 'a=:b' }), show('https://ex.com/(foo|bar)'), show('https://ex.com/\\:x'),
    show({ pathname: '/a' }, undefined, { ignoreCase: true }), show({ protocol: 'http{s}?' }), show({ bogus: 1 }),
  ],
  'urlpattern-pattern-strings': () => [
    show({ pathname: '/:x([\\d]+)' }), show({ pathname: '/a/../b' }), show({ pathname: 'a/b' }), show({ protocol: 'data', pathname: 'text/:x' }),
    show({ pathname: '/:a*' }), show({ pathname: '/*' }), show({ pathname: '/(.*)' }), show({ pathname: '/:a(.*)' }), show({ pathname: '/{foo}?' }),
    show({ pathname: '/{:a}' }), show({ pathname: '/:a:b' }), show({ pathname: '/:a\\:b' }), show({ pathname: '/foo/:bar.html' }), show({ pathname: '/:café' }),
    show({ pathname: '/(a)(b)' }), show({ pathname: '/:a/:b?' }), show('https://ex.com:8080'), show('https://ex.com?x'), show('https://ex.com#x'),
    show('?x', 'https://ex.com/a/b?q#h'), show('#x', 'https://ex.com/a/b?q#h'), show('c', 'https://ex.com/a/b?q#h'),
    show({ baseURL: 'https://u:p@ex.com:81/a/b?q#h' }), show({ baseURL: 'https://ex.com/a/b?q#h', search: 's' }),
    show({ pathname: '/caf\u00e9/:x' }), show({ pathname: '/a b' }), show({ hostname: 'EX.com' }), show({ protocol: 'HTTP' }),
    show({ port: '443', protocol: 'https' }), show({ search: '?a' }), show({ hash: '#h' }), show('https://ex.com/%E2%82%AC'), show('https://ex.com/\u20ac'),
  ],
  'urlpattern-exec': () => {
    const p = new URLPattern({ protocol: 'https', hostname: 'example.com', pathname: '/books/:id(\\d+)/:rest*', search: 'q=:q' });
    return [
      errOf(() => p.exec('https://example.com/books/123/a/b?q=z')),
      errOf(() => p.exec('https://example.com/books/abc')),
      errOf(() => p.exec({ pathname: '/books/7', hostname: 'example.com', protocol: 'https', search: 'q=2' })),
      errOf(() => p.exec('/books/5?q=3', 'https://example.com')),
      errOf(() => new URLPattern({ pathname: '/api/*' }).exec('https://any.host:8080/api/v1/users')),
      errOf(() => new URLPattern({ pathname: '/:a{-:b}?' }).exec('https://x/foo-bar').pathname),
      errOf(() => new URLPattern({ pathname: '/:a{-:b}?' }).exec('https://x/foo').pathname),
      errOf(() => new URLPattern({ hostname: '*.example.com' }).exec('https://a.b.example.com/').hostname),
      errOf(() => new URLPattern({ pathname: '/:a/:b?' }).exec('https://x/1').pathname),
      errOf(() => new URLPattern({ pathname: '/:a+' }).exec('https://x/1/2/3').pathname),
      errOf(() => new URLPattern({ pathname: '/(\\d+)/(.*)' }).exec('https://x/12/z/y').pathname),
      errOf(() => new URLPattern('https://ex.com/*').exec('https://ex.com/a?b#c')),
      errOf(() => new URLPattern({ search: '*' }).exec({ search: '?x=1' }).search),
      errOf(() => new URLPattern({ pathname: '/:x([a-z]+)' }).exec('https://a/foo').pathname.groups),
      errOf(() => new URLPattern({ pathname: '/a' }).exec()),
    ];
  },
  'urlpattern-test': () => {
    const p = new URLPattern({ protocol: 'https', hostname: 'example.com', pathname: '/books/:id(\\d+)/:rest*', search: 'q=:q' });
    const ic = new URLPattern({ pathname: '/Foo' }, { ignoreCase: true });
    return [
      p.test('https://example.com/books/1?q=1'), p.test('not a url'), new URLPattern({ pathname: '/api/*' }).test('https://x/api'),
      new URLPattern({ pathname: '/api/*' }).test('https://x/api/'), new URLPattern({ hostname: '*.example.com' }).test('https://example.com/'),
      ic.test('https://x/FOO'), ic.test('https://x/foo'), new URLPattern({ pathname: '/Foo' }).test('https://x/foo'),
      new URLPattern({ hash: 'a' }).test({ hash: '#a' }), new URLPattern({ port: '80' }).test('http://x:80/'),
      new URLPattern({ pathname: '/caf\u00e9' }).test('https://x/caf%C3%A9'), new URLPattern().test('anything:weird'),
      new URLPattern({ pathname: '/a' }).test({ pathname: '/a', baseURL: 'https://x' }), new URLPattern({ pathname: '/a' }).test('/a', 'https://x'),
      new URLPattern({ pathname: '/a' }).test(), new URLPattern({ protocol: 'http{s}?' }).test('http://a/'),
      new URLPattern('https://example.com/*').test('https://example.com/anything/here?x#y'),
    ];
  },
  'urlpattern-errors': () => [
    show('/x'), show('not a url'), show('https://example.com/(('), show('https://example.com/:a/:a'), show({ pathname: '/a' }, 'https://x'),
    show('https://ex.com/:x(a(b))'), show(5), show({ pathname: '/:1a' }), show({ pathname: '/:x([a-z-]+)' }), show('https://ex.com/a', 5),
    show({ port: 'abc' }), show({ protocol: 'ht tp' }), show({ hostname: 'a b' }), show('https://example.com/books/:id(\\d+)/:rest*?q=:q'),
    errOf(() => new URLPattern({ pathname: '/a' }).test({ pathname: '/a' }, 'https://x')),
    errOf(() => new URLPattern({ pathname: '/a' }).exec({ pathname: '/a' }, 'https://x')),
  ],
  'urlpattern-shape': () => [Object.getOwnPropertyNames(URLPattern.prototype).sort(), Object.getOwnPropertyNames(URLPattern).sort(), tag(new URLPattern()),
    typeof URLPattern, URLPattern.length],
};
