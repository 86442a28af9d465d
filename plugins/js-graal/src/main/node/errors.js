// Node-style errors with a `code` (ERR_…), as workerd's node: modules throw them, and the
// "not implemented" error of an API cellgate does not provide: a clear throw naming it, never a
// silent stub.
export function codedError(Base, code, message) {
  const e = new Base(message);
  Object.defineProperty(e, 'code', { value: code, writable: true, configurable: true, enumerable: true });
  return e;
}

export function notImplemented(name) {
  return function () {
    throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The ' + name + ' method is not implemented');
  };
}

export const describe = (v) => {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'function ' + (v.name || '<anonymous>');
  if (typeof v === 'object') {
    const name = v.constructor && v.constructor.name;
    return name ? 'an instance of ' + name : 'an instance of Object';
  }
  let s = typeof v === 'string' ? "'" + (v.length > 25 ? v.slice(0, 25) + '...' : v) + "'" : String(v);
  if (typeof v === 'bigint') s += 'n';
  return 'type ' + typeof v + ' (' + s + ')';
};

export function invalidArgType(name, expected, actual) {
  return codedError(TypeError, 'ERR_INVALID_ARG_TYPE',
    'The "' + name + '" argument must be ' + expected + '. Received ' + describe(actual));
}

export function outOfRange(name, range, actual) {
  return codedError(RangeError, 'ERR_OUT_OF_RANGE',
    'The value of "' + name + '" is out of range. It must be ' + range + '. Received ' + String(actual));
}
