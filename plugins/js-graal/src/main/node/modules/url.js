// node:url: the platform's URL and URLSearchParams, the legacy url.parse/format/resolve of the
// `url` package (Node's own legacy parser, as browserify ships it), and the file-URL helpers
// written here for POSIX paths, as workerd answers them.
import * as legacy from 'url/url.js';
import punycode from 'punycode/punycode.js';
import { codedError, invalidArgType } from '../errors.js';

function fileURLToPath(input) {
  let u = input;
  if (typeof u === 'string') u = new URL(u);
  else if (!(u instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', input);
  if (u.protocol !== 'file:') throw codedError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname !== '') {
    throw codedError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const p = u.pathname;
  for (let i = 0; i + 2 < p.length; i++) {
    if (p[i] === '%' && p[i + 1] === '2' && (p[i + 2] === 'f' || p[i + 2] === 'F')) {
      throw codedError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
    }
  }
  return decodeURIComponent(p);
}

function pathToFileURL(path) {
  if (typeof path !== 'string') throw invalidArgType('path', 'of type string', path);
  let resolved = path.startsWith('/') ? path : '/bundle/' + path; // the Worker's cwd, as process.cwd() says
  const u = new URL('file://');
  u.pathname = resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09');
  return u;
}

function format(u, options) {
  if (u instanceof URL) {
    const o = Object.assign({ auth: true, fragment: true, search: true, unicode: false }, options);
    let s = u.protocol;
    if (u.host !== '' || u.protocol === 'file:') {
      s += '//';
      if (o.auth && (u.username || u.password)) s += u.username + (u.password ? ':' + u.password : '') + '@';
      s += o.unicode ? punycode.toUnicode(u.hostname) + (u.port ? ':' + u.port : '') : u.host;
    }
    s += u.pathname;
    if (o.search) s += u.search;
    if (o.fragment) s += u.hash;
    return s;
  }
  return legacy.format(u);
}

function urlToHttpOptions(u) {
  const o = {
    protocol: u.protocol, hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname, hash: u.hash,
    search: u.search, pathname: u.pathname, path: (u.pathname || '') + (u.search || ''), href: u.href,
  };
  if (u.port !== '') o.port = Number(u.port);
  if (u.username || u.password) o.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password);
  return o;
}

const url = {
  parse: legacy.parse, resolve: legacy.resolve, resolveObject: legacy.resolveObject, Url: legacy.Url, format,
  fileURLToPath, pathToFileURL, urlToHttpOptions,
  domainToASCII: (d) => { try { return new URL('http://' + d).hostname; } catch { return ''; } },
  domainToUnicode: (d) => { try { return punycode.toUnicode(new URL('http://' + d).hostname); } catch { return ''; } },
  toPathIfFileURL: (u) => (u instanceof URL ? fileURLToPath(u) : u),
};
Object.defineProperty(url, 'URL', { get: () => globalThis.URL, enumerable: true, configurable: true });
Object.defineProperty(url, 'URLSearchParams', { get: () => globalThis.URLSearchParams, enumerable: true, configurable: true });
export default url;
