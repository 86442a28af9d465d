// The KV API of ctx.storage over CellStorage (StorageBridge): values are structured clones, keys
// are ordered by their UTF-8 bytes (SQLite's BINARY collation, Cloudflare's order). The async API
// settles its promises in the same turn (the storage is synchronous), so no other event can run
// between a storage call and its continuation: the input gate holds by construction. Calls over
// more keys than the host takes at once are split; they still commit together with the turn.
(function (host, internal) {
  'use strict';
  const BATCH = 128;

  // Code point order is UTF-8 byte order (JavaScript's < compares UTF-16 units, which differs
  // above U+FFFF).
  function compareKeys(a, b) {
    for (let i = 0, j = 0; i < a.length && j < b.length;) {
      const x = a.codePointAt(i);
      const y = b.codePointAt(j);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1;
      j += y > 0xffff ? 2 : 1;
    }
    return a.length === b.length ? 0 : (a.length < b.length ? -1 : 1);
  }
  internal.compareKeys = compareKeys;

  const toBytes = (v) => { const b = internal.serialize(v); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); };
  const fromHost = (bb) => internal.deserialize(new Uint8Array(new ArrayBuffer(bb)));
  function batches(list) {
    const out = [];
    for (let i = 0; i < list.length; i += BATCH) out.push(list.slice(i, i + BATCH));
    return out;
  }

  /** The synchronous operations both KV APIs share; `check` turns a host refusal into an Error. */
  function kvOps(bridge, check) {
    return {
      getOne(key) {
        const v = [...check(bridge.kvGet([key]))][0];
        return v === null ? undefined : fromHost(v);
      },
      getMany(keys) {
        const found = [];
        for (const batch of batches(keys)) {
          const vals = [...check(bridge.kvGet(batch))];
          batch.forEach((k, i) => { if (vals[i] !== null) found.push([k, vals[i]]); });
        }
        found.sort((a, b) => compareKeys(a[0], b[0]));
        const m = new Map();
        for (const [k, v] of found) if (!m.has(k)) m.set(k, fromHost(v));
        return m;
      },
      put(entries) {
        const encoded = entries.map(([k, v]) => [k, toBytes(v)]);
        for (const batch of batches(encoded)) check(bridge.kvPut(batch.map(([k]) => k), batch.map(([, v]) => v)));
      },
      deleteMany(keys) {
        let n = 0;
        for (const batch of batches(keys)) n += check(bridge.kvDelete(batch));
        return n;
      },
      list(options) {
        const o = options === undefined || options === null ? {} : options;
        if (o.start !== undefined && o.startAfter !== undefined) {
          throw new TypeError('list() cannot be called with both start and startAfter values.');
        }
        let limit = 0;
        if (o.limit !== undefined) {
          const n = Math.trunc(Number(o.limit));
          if (!(n >= 1)) throw new TypeError('List limit must be positive.');
          limit = Math.min(n, 2147483647);
        }
        const str = (x) => (x === undefined ? null : String(x));
        const flat = [...check(bridge.kvList(str(o.start), str(o.startAfter), str(o.end), str(o.prefix), !!o.reverse, limit))];
        const m = new Map();
        for (let i = 0; i < flat.length; i += 2) m.set(flat[i], fromHost(flat[i + 1]));
        return m;
      },
    };
  }

  const settleNow = (fn) => { try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); } };

  /**
   * get/put/delete/list of ctx.storage (and of a transaction). `settle` wraps each synchronous
   * operation in the promise the API returns.
   */
  internal.newKvStorage = function (bridge, check, settle = settleNow) {
    const ops = kvOps(bridge, check);
    return {
      get(keys) {
        if (arguments.length === 0) {
          return Promise.reject(new TypeError("Failed to execute 'get' on 'DurableObjectStorage': parameter 1 is not of type 'string or Array'."));
        }
        return settle(() => (Array.isArray(keys) ? ops.getMany(keys.map(String)) : ops.getOne(String(keys))));
      },
      put(keyOrEntries, value) {
        return settle(() => {
          if (typeof keyOrEntries === 'object' && keyOrEntries !== null) {
            // An object of entries: an undefined value is skipped, as in workerd.
            ops.put(Object.entries(keyOrEntries).filter(([, v]) => v !== undefined));
            return undefined;
          }
          if (value === undefined) throw new TypeError('put() called with undefined value.');
          ops.put([[String(keyOrEntries), value]]);
          return undefined;
        });
      },
      delete(keys) {
        return settle(() => (Array.isArray(keys) ? ops.deleteMany(keys.map(String)) : ops.deleteMany([String(keys)]) > 0));
      },
      list(options) {
        return settle(() => ops.list(options));
      },
    };
  };

  class ListIterator {
    #entries; #at = 0;
    constructor(entries) { this.#entries = entries; }
    next() { return this.#at < this.#entries.length ? { done: false, value: this.#entries[this.#at++] } : { done: true, value: undefined }; }
    [Symbol.iterator]() { return this; }
    get [Symbol.toStringTag]() { return 'ListIterator'; }
  }

  class SyncKvStorage {
    #ops;
    constructor(ops) { this.#ops = ops; }
    get(key) { return this.#ops.getOne(String(key)); }
    put(key, value) {
      // Unlike the async API, workerd's synchronous put() stores undefined.
      this.#ops.put([[String(key), value]]);
    }
    delete(key) { return this.#ops.deleteMany([String(key)]) > 0; }
    list(options) { return new ListIterator([...this.#ops.list(options)]); }
    get [Symbol.toStringTag]() { return 'SyncKvStorage'; }
  }

  /** ctx.storage.kv: the synchronous KV API of SQLite-backed objects. */
  internal.newSyncKv = (bridge, check) => new SyncKvStorage(kvOps(bridge, check));
});
