// Durable Object ids and namespaces (env bindings).
//
// idFromName is deterministic and equal on every node and version: the id is the lowercase hex
// SHA-256 of  scriptName + "\0" + className + "\0" + name  (UTF-8). newUniqueId is 32 random
// bytes in hex. idFromString accepts exactly 64 hex characters (either case; kept lowercase).
(function (host, internal) {
  'use strict';
  const CREATE = Symbol('create');

  class DurableObjectId {
    #hex; #name; #className;
    constructor(key, className, hex, name) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this.#className = className; this.#hex = hex; this.#name = name;
    }
    get name() { return this.#name; }
    toString() { return this.#hex; }
    equals(other) { return other instanceof DurableObjectId && other.#hex === this.#hex && other.#className === this.#className; }
    static {
      internal.idParts = (id) => [id.#className, id.#hex, id.#name];
      internal.newId = (className, hex, name) => new DurableObjectId(CREATE, className, hex, name);
    }
  }

  class DurableObjectNamespace {
    #scriptName; #className;
    constructor(key, scriptName, className) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this.#scriptName = scriptName; this.#className = className;
    }
    idFromName(name) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'idFromName': 1 argument required, but only 0 present.");
      name = String(name);
      return new DurableObjectId(CREATE, this.#className, host.sha256Hex(this.#scriptName + '\0' + this.#className + '\0' + name), name);
    }
    idFromString(hex) {
      hex = String(hex);
      if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('Invalid Durable Object ID: must be 64 hex digits');
      return new DurableObjectId(CREATE, this.#className, hex.toLowerCase(), undefined);
    }
    newUniqueId(options) {
      if (options && options.jurisdiction !== undefined) throw internal.unsupported('newUniqueId({jurisdiction})');
      return new DurableObjectId(CREATE, this.#className, host.randomHex32(), undefined);
    }
    get(id, options) {
      if (!(id instanceof DurableObjectId)) throw new TypeError("Failed to execute 'get' on 'DurableObjectNamespace': parameter 1 is not of type 'DurableObjectId'.");
      if (internal.idParts(id)[0] !== this.#className) throw new TypeError('ID is not for this Durable Object class.');
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
