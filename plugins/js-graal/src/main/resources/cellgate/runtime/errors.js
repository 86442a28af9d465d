// Shared helpers of the runtime scripts, and DOMException.
(function (host, internal) {
  'use strict';

  // GraalJS extras that are not part of the Workers platform.
  for (const name of ['Graal', 'Polyglot', 'Java', 'Packages', 'print', 'printErr', 'load', 'loadWithNewGlobal', 'quit', 'read', 'readbuffer', 'readline']) {
    delete globalThis[name];
  }

  internal.defineGlobal = function (name, value) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  };

  // An API cellgate does not implement: a clear TypeError naming it, never a silent stub.
  internal.unsupported = function (name) {
    return new TypeError(name + ' is not supported by cellgate');
  };

  // [name, message, stack] of anything thrown, for the host's error reports.
  internal.errorParts = function (e) {
    if (e !== null && typeof e === 'object') {
      const name = typeof e.name === 'string' ? e.name : 'Error';
      const message = typeof e.message === 'string' ? e.message : String(e);
      const stack = typeof e.stack === 'string' && e.stack ? e.stack : name + ': ' + message;
      return [name, message, stack];
    }
    return ['Error', 'Uncaught ' + String(e), 'Uncaught ' + String(e)];
  };

  const CODES = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
    SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
    TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
    QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  };

  class DOMException extends Error {
    #name;
    #message;
    constructor(message = '', name = 'Error') {
      super(String(message));
      this.#message = String(message);
      this.#name = String(name);
    }
    get name() { return this.#name; }
    get message() { return this.#message; }
    get code() { return CODES[this.#name] || 0; }
  }
  for (const [k, v] of Object.entries(CODES)) {
    const constName = k.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase().replace(/_ERROR$/, '_ERR');
    Object.defineProperty(DOMException, constName, { value: v, enumerable: true });
  }
  internal.defineGlobal('DOMException', DOMException);
});
