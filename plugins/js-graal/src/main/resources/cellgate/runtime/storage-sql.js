// ctx.storage.sql: the SQL API of a SQLite-backed Durable Object over CellStorage.sql (StorageBridge).
// The host runs each statement to completion and hands back every row at once; the cursor walks
// them. Bindings follow workerd: null/undefined bind NULL, numbers and strings as they are,
// ArrayBuffers and views as BLOBs, a BigInt is a TypeError, anything else binds as String(value).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kCursor = Symbol('RawIterator.cursor');
  const kColumns = Symbol('Cursor.columns');
  const kRows = Symbol('Cursor.rows');
  const kAt = Symbol('Cursor.at');
  const kRowsRead = Symbol('Cursor.rowsRead');
  const kRowsWritten = Symbol('Cursor.rowsWritten');
  const kStep = Symbol('Cursor.step');
  const kBridge = Symbol('SqlStorage.bridge');
  const kCheck = Symbol('SqlStorage.check');

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
    [kCursor];
    constructor(cursor) { this[kCursor] = cursor; }
    next() { return internal.cursorStep(this[kCursor], true); }
    toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
    [Symbol.iterator]() { return this; }
    get [Symbol.toStringTag]() { return 'RawIterator'; }
  }

  class Cursor {
    [kColumns]; [kRows]; [kAt] = 0; [kRowsRead]; [kRowsWritten];
    constructor(result) {
      this[kColumns] = [...result[0]];
      this[kRows] = [...result[1]].map((row) => [...row].map(blobOut));
      this[kRowsRead] = result[2];
      this[kRowsWritten] = result[3];
    }
    get columnNames() { return this[kColumns].slice(); }
    get rowsRead() { return this[kRowsRead]; }
    get rowsWritten() { return this[kRowsWritten]; }
    next() { return Cursor[kStep](this, false); }
    toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
    one() {
      const rest = this[kRows].length - this[kAt];
      if (rest !== 1) {
        throw new Error(rest === 0 ? 'Expected exactly one result from SQL query, but got no results.'
          : 'Expected exactly one result from SQL query, but got multiple results.');
      }
      return this.next().value;
    }
    raw() { return new RawIterator(this); }
    [Symbol.iterator]() { return this; }
    get [Symbol.toStringTag]() { return 'Cursor'; }
    static [kStep](c, raw) {
      if (c[kAt] >= c[kRows].length) return { done: true, value: undefined };
      const row = c[kRows][c[kAt]++];
      if (raw) return { done: false, value: row.slice() };
      const o = {};
      // A repeated column name keeps the last value, as in workerd.
      c[kColumns].forEach((name, i) => { o[name] = row[i]; });
      return { done: false, value: o };
    }
    static { internal.cursorStep = (c, raw) => Cursor[kStep](c, raw); }
  }

  class SqlStorage {
    [kBridge]; [kCheck];
    constructor(bridge, check) { this[kBridge] = bridge; this[kCheck] = check; }
    exec(query, ...bindings) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'exec' on 'SqlStorage': parameter 1 is not of type 'JsString'.");
      return new Cursor(this[kCheck](this[kBridge].sql(String(query), bindings.map(sqlValue))));
    }
    get databaseSize() { return this[kCheck](this[kBridge].databaseSize()); }
    get Cursor() { return Cursor; }
    get [Symbol.toStringTag]() { return 'SqlStorage'; }
  }

  internal.newSqlStorage = (bridge, check) => new SqlStorage(bridge, check);
});
