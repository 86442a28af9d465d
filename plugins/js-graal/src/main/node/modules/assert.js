// node:assert and node:assert/strict: the `assert` package (Node's assert for every engine, by the
// browserify team), plus partialDeepStrictEqual, which it predates (throws naming itself).
import assert from 'assert/build/assert.js';
import { notImplemented } from '../errors.js';

assert.partialDeepStrictEqual = notImplemented('assert.partialDeepStrictEqual');
if (assert.strict) assert.strict.partialDeepStrictEqual = assert.partialDeepStrictEqual;
export default assert;
