// node:path: `path-browserify` (Node's POSIX path module, as browserify ships it). path.win32 is
// not provided: each of its functions throws naming itself.
import posix from 'path-browserify/index.js';
import { notImplemented } from '../errors.js';

const path = Object.assign({}, posix);
path.toNamespacedPath = (p) => p;
path.matchesGlob = notImplemented('path.matchesGlob');
const win32 = { sep: '\\', delimiter: ';' };
for (const k of ['basename', 'dirname', 'extname', 'format', 'isAbsolute', 'join', 'normalize', 'parse', 'relative', 'resolve',
  'toNamespacedPath', 'matchesGlob']) win32[k] = notImplemented('path.win32.' + k);
path.posix = path;
path.win32 = win32;
win32.posix = path;
win32.win32 = win32;
export default path;
