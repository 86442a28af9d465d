// Shared helpers of the runtime scripts, and DOMException.
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kName = Symbol('DOMException.name');
  const kMessage = Symbol('DOMException.message');

  // GraalJS's own extras (Graal, print, load, Java…) are switched off by the context options
  // (GraalJsEngine.newContext), so nothing needs deleting here.

  // The platform's own classes by global name, whatever user code later assigns to the globals.
  const builtins = Object.create(null);
  internal.defineGlobal = function (name, value) {
    builtins[name] = value;
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  };
  // `v instanceof <platform class>` that does not load a lazy runtime file (lazy.js) to answer:
  // before the file is loaded no instance of its classes can exist.
  internal.isInstance = (name, v) => {
    const C = builtins[name];
    return C !== undefined && v instanceof C;
  };
  // The platform's class `name` for the runtime's own use, even if user code replaced the global
  // (workerd's built-ins do not see such replacements). Touching the global loads a lazy file.
  internal.builtin = (name) => {
    if (builtins[name] === undefined) void globalThis[name];
    return builtins[name];
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
      // a bundle with source maps names its original files (source-maps.js)
      return [name, message, internal.stackMapper === undefined ? stack : internal.stackMapper(stack)];
    }
    return ['Error', 'Uncaught ' + String(e), 'Uncaught ' + String(e)];
  };

  // name -> [legacy code, constant name] (WebIDL), spelled out: computing the constant names
  // with regular expressions in every new context cost more than the rest of this file.
  const CODES = {
    IndexSizeError: [1, 'INDEX_SIZE_ERR'], HierarchyRequestError: [3, 'HIERARCHY_REQUEST_ERR'],
    WrongDocumentError: [4, 'WRONG_DOCUMENT_ERR'], InvalidCharacterError: [5, 'INVALID_CHARACTER_ERR'],
    NoModificationAllowedError: [7, 'NO_MODIFICATION_ALLOWED_ERR'], NotFoundError: [8, 'NOT_FOUND_ERR'],
    NotSupportedError: [9, 'NOT_SUPPORTED_ERR'], InvalidStateError: [11, 'INVALID_STATE_ERR'], SyntaxError: [12, 'SYNTAX_ERR'],
    InvalidModificationError: [13, 'INVALID_MODIFICATION_ERR'], NamespaceError: [14, 'NAMESPACE_ERR'],
    InvalidAccessError: [15, 'INVALID_ACCESS_ERR'], TypeMismatchError: [17, 'TYPE_MISMATCH_ERR'], SecurityError: [18, 'SECURITY_ERR'],
    NetworkError: [19, 'NETWORK_ERR'], AbortError: [20, 'ABORT_ERR'], URLMismatchError: [21, 'URL_MISMATCH_ERR'],
    QuotaExceededError: [22, 'QUOTA_EXCEEDED_ERR'], TimeoutError: [23, 'TIMEOUT_ERR'], InvalidNodeTypeError: [24, 'INVALID_NODE_TYPE_ERR'],
    DataCloneError: [25, 'DATA_CLONE_ERR'],
  };

  class DOMException extends Error {
    [kName];
    [kMessage];
    constructor(message = '', name = 'Error') {
      super(String(message));
      this[kMessage] = String(message);
      this[kName] = String(name);
    }
    get name() { return this[kName]; }
    get message() { return this[kMessage]; }
    get code() { const c = CODES[this[kName]]; return c === undefined ? 0 : c[0]; }
    static {
      for (const name in CODES) Object.defineProperty(this, CODES[name][1], { value: CODES[name][0], enumerable: true });
    }
  }
  internal.defineGlobal('DOMException', DOMException);
});
