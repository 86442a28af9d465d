// Durable Object ids and namespaces (env bindings).
//
// idFromName is deterministic and equal on every node and version: the id is the lowercase hex
// SHA-256 of  scriptName + "\0" + className + "\0" + name  (UTF-8). newUniqueId is 32 random
// bytes in hex. idFromString accepts exactly 64 hex characters (either case; kept lowercase).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kHex = Symbol('DurableObjectId.hex');
  const kName = Symbol('DurableObjectId.name');
  const kDurableObjectIdClassName = Symbol('DurableObjectId.className');
  const kScriptName = Symbol('DurableObjectNamespace.scriptName');
  const kDurableObjectNamespaceClassName = Symbol('DurableObjectNamespace.className');
  const CREATE = Symbol('create');

  class DurableObjectId {
    [kHex]; [kName]; [kDurableObjectIdClassName];
    constructor(key, className, hex, name) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kDurableObjectIdClassName] = className; this[kHex] = hex; this[kName] = name;
    }
    get name() { return this[kName]; }
    toString() { return this[kHex]; }
    equals(other) { return other instanceof DurableObjectId && other[kHex] === this[kHex] && other[kDurableObjectIdClassName] === this[kDurableObjectIdClassName]; }
    static {
      internal.idParts = (id) => [id[kDurableObjectIdClassName], id[kHex], id[kName]];
      internal.newId = (className, hex, name) => new DurableObjectId(CREATE, className, hex, name);
    }
  }

  class DurableObjectNamespace {
    [kScriptName]; [kDurableObjectNamespaceClassName];
    constructor(key, scriptName, className) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kScriptName] = scriptName; this[kDurableObjectNamespaceClassName] = className;
    }
    idFromName(name) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'idFromName': 1 argument required, but only 0 present.");
      name = String(name);
      return new DurableObjectId(CREATE, this[kDurableObjectNamespaceClassName], host.sha256Hex(this[kScriptName] + '\0' + this[kDurableObjectNamespaceClassName] + '\0' + name), name);
    }
    idFromString(hex) {
      hex = String(hex);
      if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('Invalid Durable Object ID: must be 64 hex digits');
      return new DurableObjectId(CREATE, this[kDurableObjectNamespaceClassName], hex.toLowerCase(), undefined);
    }
    newUniqueId(options) {
      if (options && options.jurisdiction !== undefined) throw internal.unsupported('newUniqueId({jurisdiction})');
      return new DurableObjectId(CREATE, this[kDurableObjectNamespaceClassName], host.randomHex32(), undefined);
    }
    get(id, options) {
      if (!(id instanceof DurableObjectId)) throw new TypeError("Failed to execute 'get' on 'DurableObjectNamespace': parameter 1 is not of type 'DurableObjectId'.");
      if (internal.idParts(id)[0] !== this[kDurableObjectNamespaceClassName]) throw new TypeError('ID is not for this Durable Object class.');
      if (options && options.locationHint !== undefined) { /* placement hints have no meaning on a single fleet */ }
      return internal.newStub(id);
    }
    getByName(name, options) { return this.get(this.idFromName(name), options); }
    jurisdiction() { throw internal.unsupported('DurableObjectNamespace.jurisdiction()'); }
    static {
      internal.newNamespace = (scriptName, className) => new DurableObjectNamespace(CREATE, scriptName, className);
    }
  }
  internal.DurableObjectId = DurableObjectId;
  internal.defineGlobal('DurableObjectId', DurableObjectId);
  internal.defineGlobal('DurableObjectNamespace', DurableObjectNamespace);
});
