// node:path: `path-browserify` (Node's POSIX path module, as browserify ships it), with Node's
// argument errors (ERR_INVALID_ARG_TYPE). path.win32 is not provided: each of its functions throws
// naming itself.
import posix from 'path-browserify/index.js';
import { invalidArgType, notImplemented } from '../errors.js';

const str = (v, name) => { if (typeof v !== 'string') throw invalidArgType(name, 'of type string', v); };
const checked = {
  join: (...a) => { a.forEach((p) => str(p, 'path')); return posix.join(...a); },
  resolve: (...a) => { a.forEach((p, i) => str(p, 'paths[' + i + ']')); return posix.resolve(...a); },
  normalize: (p) => { str(p, 'path'); return posix.normalize(p); },
  isAbsolute: (p) => { str(p, 'path'); return posix.isAbsolute(p); },
  relative: (from, to) => { str(from, 'from'); str(to, 'to'); return posix.relative(from, to); },
  dirname: (p) => { str(p, 'path'); return posix.dirname(p); },
  basename: (p, ext) => { str(p, 'path'); if (ext !== undefined) str(ext, 'suffix'); return posix.basename(p, ext); },
  extname: (p) => { str(p, 'path'); return posix.extname(p); },
  parse: (p) => { str(p, 'path'); return posix.parse(p); },
  format: (o) => {
    if (o === null || typeof o !== 'object') throw invalidArgType('pathObject', 'of type object', o);
    return posix.format(o);
  },
};
const path = Object.assign({}, posix, checked);
path.toNamespacedPath = (p) => p;
path.matchesGlob = notImplemented('path.matchesGlob');
delete path._makeLong;
const win32 = { sep: '\\', delimiter: ';' };
for (const k of ['basename', 'dirname', 'extname', 'format', 'isAbsolute', 'join', 'normalize', 'parse', 'relative', 'resolve',
  'toNamespacedPath', 'matchesGlob']) win32[k] = notImplemented('path.win32.' + k);
path.posix = path;
path.win32 = win32;
win32.posix = path;
win32.win32 = win32;
export default path;
