// ctx.storage of a Durable Object over CellStorage (StorageBridge.java): the SQL API, the KV API
// with structured-clone values, transactions and alarms. Calls are synchronous underneath; the
// KV API returns promises as on Cloudflare. (Input/output gates are the cell host's job.)
(function (host, internal) {
  'use strict';
  const MAX_KEYS = 128;

  function check(bridge, result) {
    if (result === null || result === undefined) {
      const msg = bridge.takeError();
      if (msg !== null && msg !== undefined) throw new Error(msg);
    }
    return result;
  }
  const toBytes = (v) => { const b = internal.serialize(v); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); };
  const fromHost = (bb) => internal.deserialize(new Uint8Array(new ArrayBuffer(bb)));
  const async = (fn) => { try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); } };
  const keyList = (keys) => {
    if (keys.length > MAX_KEYS) throw new RangeError('Maximum number of keys is ' + MAX_KEYS + '.');
    return keys.map(String);
  };

  class SqlStorageCursor {
    #columns; #rows; #at = 0; #rowsRead; #rowsWritten;
    constructor(result) {
      this.#columns = [...result[0]];
      this.#rows = [...result[1]].map((row) => [...row].map((v) => (v !== null && typeof v === 'object' ? new Uint8Array(new ArrayBuffer(v)).slice().buffer : v)));
      this.#rowsRead = result[2];
      this.#rowsWritten = result[3];
    }
    get columnNames() { return this.#columns.slice(); }
    get rowsRead() { return this.#rowsRead; }
    get rowsWritten() { return this.#rowsWritten; }
    #object(row) { const o = {}; this.#columns.forEach((c, i) => { o[c] = row[i]; }); return o; }
    next() {
      if (this.#at >= this.#rows.length) return { done: true, value: undefined };
      return { done: false, value: this.#object(this.#rows[this.#at++]) };
    }
    toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
    one() {
      const rest = this.#rows.length - this.#at;
      if (rest !== 1) throw new Error(rest === 0 ? 'Expected exactly one result from SQL query, but got no results.' : 'Expected exactly one result from SQL query, but got multiple results.');
      return this.next().value;
    }
    *raw() { while (this.#at < this.#rows.length) yield this.#rows[this.#at++].slice(); }
    [Symbol.iterator]() { return this; }
  }

  internal.newStorage = function (bridge) {
    const sql = {
      exec(query, ...bindings) {
        const args = bindings.map((b) => (b instanceof ArrayBuffer ? b : ArrayBuffer.isView(b) ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b));
        return new SqlStorageCursor(check(bridge, bridge.sql(String(query), args)));
      },
      get databaseSize() { return check(bridge, bridge.databaseSize()); },
    };
    const nested = (op) => check(bridge, bridge.nested(op));
    const storage = {
      sql,
      get(keys) {
        return async(() => {
          if (Array.isArray(keys)) {
            const vals = [...check(bridge, bridge.kvGet(keyList(keys)))];
            const m = new Map();
            keys.forEach((k, i) => { if (vals[i] !== null) m.set(String(k), fromHost(vals[i])); });
            return m;
          }
          const v = [...check(bridge, bridge.kvGet([String(keys)]))][0];
          return v === null ? undefined : fromHost(v);
        });
      },
      put(keyOrEntries, value) {
        return async(() => {
          const entries = typeof keyOrEntries === 'object' && keyOrEntries !== null ? Object.entries(keyOrEntries) : [[String(keyOrEntries), value]];
          if (typeof keyOrEntries !== 'object' && value === undefined) throw new TypeError('Cannot store undefined; use delete() instead.');
          check(bridge, bridge.kvPut(keyList(entries.map(([k]) => k)), entries.map(([, v]) => toBytes(v))));
        });
      },
      delete(keys) {
        return async(() => {
          const n = check(bridge, bridge.kvDelete(keyList(Array.isArray(keys) ? keys : [keys])));
          return Array.isArray(keys) ? n : n > 0;
        });
      },
      list(options = {}) {
        return async(() => {
          const o = (x) => (x === undefined ? null : String(x));
          const flat = [...check(bridge, bridge.kvList(o(options.start), o(options.startAfter), o(options.end), o(options.prefix),
            !!options.reverse, options.limit === undefined ? 0 : Number(options.limit)))];
          const m = new Map();
          for (let i = 0; i < flat.length; i += 2) m.set(flat[i], fromHost(flat[i + 1]));
          return m;
        });
      },
      deleteAll() { return async(() => { check(bridge, bridge.kvDeleteAll()); }); },
      transactionSync(fn) {
        nested(0);
        let result;
        try { result = fn(); } catch (e) { nested(2); throw e; }
        nested(1);
        return result;
      },
      async transaction(fn) {
        nested(0);
        let result;
        try { result = await fn({ rollback() { throw internal.unsupported('txn.rollback()'); }, get: storage.get, put: storage.put, delete: storage.delete, list: storage.list }); } catch (e) { nested(2); throw e; }
        nested(1);
        return result;
      },
      getAlarm() { return async(() => { const t = check(bridge, bridge.getAlarm()); return t < 0 ? null : t; }); },
      setAlarm(time) {
        return async(() => {
          const ms = time instanceof Date ? time.getTime() : Number(time);
          if (!Number.isFinite(ms)) throw new TypeError('setAlarm() needs a Date or a number of milliseconds since the epoch.');
          check(bridge, bridge.setAlarm(ms));
        });
      },
      deleteAlarm() { return async(() => { check(bridge, bridge.deleteAlarm()); }); },
      sync() { return Promise.resolve(); },
    };
    return storage;
  };
});
