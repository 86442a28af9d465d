// ctx.storage.sql: the SQL API of a SQLite-backed Durable Object over CellStorage.sql (StorageBridge).
// The host runs each statement to completion and hands back every row at once; the cursor walks
// them. Bindings follow workerd: null/undefined bind NULL, numbers and strings as they are,
// ArrayBuffers and views as BLOBs, a BigInt is a TypeError, anything else binds as String(value).
(function (host, internal) {
  'use strict';

  function sqlValue(v) {
    if (v === null || v === undefined) return null;
    switch (typeof v) {
      case 'number': case 'string': return v;
      case 'bigint': throw new TypeError('Cannot convert a BigInt value to a number');
      case 'object':
        if (v instanceof ArrayBuffer) return v;
        if (ArrayBuffer.isView(v)) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
        return String(v);
      default: return String(v);
    }
  }
  const blobOut = (v) => (v !== null && typeof v === 'object' ? new Uint8Array(new ArrayBuffer(v)).slice().buffer : v);

  class RawIterator {
    #cursor;
    constructor(cursor) { this.#cursor = cursor; }
    next() { return internal.cursorStep(this.#cursor, true); }
    toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
    [Symbol.iterator]() { return this; }
    get [Symbol.toStringTag]() { return 'RawIterator'; }
  }

  class Cursor {
    #columns; #rows; #at = 0; #rowsRead; #rowsWritten;
    constructor(result) {
      this.#columns = [...result[0]];
      this.#rows = [...result[1]].map((row) => [...row].map(blobOut));
      this.#rowsRead = result[2];
      this.#rowsWritten = result[3];
    }
    get columnNames() { return this.#columns.slice(); }
    get rowsRead() { return this.#rowsRead; }
    get rowsWritten() { return this.#rowsWritten; }
    next() { return Cursor.#step(this, false); }
    toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
    one() {
      const rest = this.#rows.length - this.#at;
      if (rest !== 1) {
        throw new Error(rest === 0 ? 'Expected exactly one result from SQL query, but got no results.'
          : 'Expected exactly one result from SQL query, but got multiple results.');
      }
      return this.next().value;
    }
    raw() { return new RawIterator(this); }
    [Symbol.iterator]() { return this; }
    get [Symbol.toStringTag]() { return 'Cursor'; }
    static #step(c, raw) {
      if (c.#at >= c.#rows.length) return { done: true, value: undefined };
      const row = c.#rows[c.#at++];
      if (raw) return { done: false, value: row.slice() };
      const o = {};
      // A repeated column name keeps the last value, as in workerd.
      c.#columns.forEach((name, i) => { o[name] = row[i]; });
      return { done: false, value: o };
    }
    static { internal.cursorStep = (c, raw) => Cursor.#step(c, raw); }
  }

  class SqlStorage {
    #bridge; #check;
    constructor(bridge, check) { this.#bridge = bridge; this.#check = check; }
    exec(query, ...bindings) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'exec' on 'SqlStorage': parameter 1 is not of type 'JsString'.");
      return new Cursor(this.#check(this.#bridge.sql(String(query), bindings.map(sqlValue))));
    }
    get databaseSize() { return this.#check(this.#bridge.databaseSize()); }
    get Cursor() { return Cursor; }
    get [Symbol.toStringTag]() { return 'SqlStorage'; }
  }

  internal.newSqlStorage = (bridge, check) => new SqlStorage(bridge, check);
});
