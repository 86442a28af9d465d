// node:util: browserify's `util` (promisify, callbackify, inherits, deprecate, types…) with the
// modern util.inspect/format of `node-inspect-extracted` (Node's own inspect, extracted), and
// isDeepStrictEqual from the `assert` package's comparisons.
import * as legacy from 'util/util.js';
import * as legacyTypes from 'util/support/types.js';
import { inspect, format, formatWithOptions, stripVTControlCharacters } from 'node-inspect-extracted';
import { isDeepStrictEqual } from 'assert/build/internal/util/comparisons.js';
import { codedError, invalidArgType, notImplemented } from '../errors.js';

const isNativeError = (e) => e instanceof Error || Object.prototype.toString.call(e) === '[object Error]';
export const types = Object.assign({}, legacyTypes, {
  isNativeError,
  isRegExp: (v) => Object.prototype.toString.call(v) === '[object RegExp]',
  isDate: (v) => Object.prototype.toString.call(v) === '[object Date]',
  isFloat16Array: (v) => typeof Float16Array !== 'undefined' && v instanceof Float16Array,
  isCryptoKey: (v) => typeof CryptoKey !== 'undefined' && v instanceof CryptoKey,
  isKeyObject: () => false, // cellgate's node:crypto has no KeyObject: nothing can be one
  isModuleNamespaceObject: (v) => v !== null && typeof v === 'object' && v[Symbol.toStringTag] === 'Module',
  isExternal: () => false, // no host objects leak into a Worker
  isProxy: notImplemented('util.types.isProxy'),
});
delete types.isWebAssemblyCompiledModule;

function aborted(signal, resource) {
  if (signal === undefined || signal === null || typeof signal.aborted !== 'boolean') {
    return Promise.reject(invalidArgType('signal', 'an instance of AbortSignal', signal));
  }
  if (resource === null || (typeof resource !== 'object' && typeof resource !== 'function')) {
    return Promise.reject(invalidArgType('resource', 'of type object', resource));
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

// Node's promisify, with its registered custom symbol (the util package's is a private Symbol()).
const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  if (original[kCustomPromisify]) {
    const fn = original[kCustomPromisify];
    if (typeof fn !== 'function') throw invalidArgType('util.promisify.custom', 'of type function', fn);
    return Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [...args, (err, value) => (err ? reject(err) : resolve(value))]);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function toUSVString(s) {
  return String(s).toWellFormed();
}

const util = {
  format, formatWithOptions, inspect, stripVTControlCharacters, isDeepStrictEqual, types, aborted, toUSVString,
  promisify,
  callbackify(original) {
    if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
    return legacy.callbackify(original);
  }, inherits: legacy.inherits, deprecate: legacy.deprecate,
  debuglog: legacy.debuglog, debug: legacy.debuglog, log: legacy.log, _extend: legacy._extend,
  isArray: Array.isArray, isBoolean: legacy.isBoolean, isBuffer: legacy.isBuffer, isDate: types.isDate,
  isError: isNativeError, isFunction: legacy.isFunction, isNull: legacy.isNull, isNullOrUndefined: legacy.isNullOrUndefined,
  isNumber: legacy.isNumber, isObject: legacy.isObject, isPrimitive: legacy.isPrimitive, isRegExp: types.isRegExp,
  isString: legacy.isString, isSymbol: legacy.isSymbol, isUndefined: legacy.isUndefined,
  getSystemErrorName(code) {
    if (typeof code !== 'number') throw invalidArgType('err', 'of type number', code);
    if (code >= 0 || !Number.isSafeInteger(code)) {
      throw codedError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "err" is out of range. It must be a negative integer. Received ' + code);
    }
    throw codedError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The util.getSystemErrorName method is not implemented');
  },
};
Object.defineProperty(util, 'TextEncoder', { get: () => globalThis.TextEncoder, enumerable: true, configurable: true });
Object.defineProperty(util, 'TextDecoder', { get: () => globalThis.TextDecoder, enumerable: true, configurable: true });
// promisify.custom is the registered symbol in both packages and in Node.


export default util;
