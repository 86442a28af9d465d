// ctx.storage of a Durable Object over CellStorage (StorageBridge.java): the SQL API
// (storage-sql.js), the KV APIs (storage-kv.js), transactions, alarms and deleteAll.
//
// Transactions are SQLite savepoints (CellStorage.beginNested/commitNested/rollbackNested).
// transactionSync runs its callback at once. transaction() runs inside blockConcurrencyWhile, as
// in workerd, so no other event sees its writes before it ends. The host commits storage at the
// end of every turn, so a savepoint cannot outlive one: a transaction whose callback is still
// pending when its turn ends (it awaited a timer, fetch or RPC) is rolled back then, and the
// transaction rejects with an error that says so (see settleOpenTransactions).
(function (host, internal) {
  'use strict';
  // Internal slots of the classes below. Symbols, not #private names: a #name gets a new key
  // in every context whose hash is the name's, so on the shared engine they collide in the
  // shape tree and each construction scans all contexts' keys (bench/RESULTS.md, Finding A).
  const kState = Symbol('DurableObjectTransaction.state');
  const kKv = Symbol('DurableObjectTransaction.kv');
  const kAlarms = Symbol('DurableObjectTransaction.alarms');
  const kUsable = Symbol('DurableObjectTransaction.usable');
  const BEGIN = 0, COMMIT = 1, ROLLBACK = 2;
  const ACROSS_IO = 'storage.transaction(): the callback was still running when its turn ended (it awaited a timer, fetch() '
    + 'or an RPC call). cellgate commits storage at the end of every turn, so a transaction cannot stay open across '
    + 'I/O; this one was rolled back. Do the I/O before or after the transaction.';

  // Savepoints held by transaction() callbacks, innermost last (one cell per context).
  const openTxns = [];

  function makeCheck(bridge) {
    return (result) => {
      if (result === null || result === undefined) {
        const msg = bridge.takeError();
        if (msg !== null && msg !== undefined) throw new Error(msg);
      }
      return result;
    };
  }

  /** Rolls back every transaction still open at the end of a turn (the host calls this, see above). */
  internal.settleOpenTransactions = function () {
    while (openTxns.length > 0) {
      const state = openTxns.pop();
      state.aborted = new Error(ACROSS_IO);
      state.nested(ROLLBACK);
    }
  };

  function dropSqlObjects(sql) {
    const objects = sql.exec("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') "
      + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").raw().toArray();
    if (objects.length === 0) return;
    sql.exec('PRAGMA defer_foreign_keys = ON');
    const order = { view: 0, trigger: 1, table: 2 };
    objects.sort((a, b) => order[a[0]] - order[b[0]]);
    for (const [type, name] of objects) sql.exec('DROP ' + type.toUpperCase() + ' IF EXISTS "' + name.replace(/"/g, '""') + '"');
  }

  class DurableObjectTransaction {
    [kState]; [kKv]; [kAlarms];
    constructor(state, kv, alarms) { this[kState] = state; this[kKv] = kv; this[kAlarms] = alarms; }
    [kUsable](method) {
      if (this[kState].aborted) return Promise.reject(this[kState].aborted);
      if (this[kState].rolledBack) return Promise.reject(new Error('Cannot ' + method + '() on rolled back transaction'));
      return null;
    }
    get(...a) { return this[kUsable]('get') || this[kKv].get(...a); }
    put(...a) { return this[kUsable]('put') || this[kKv].put(...a); }
    delete(...a) { return this[kUsable]('delete') || this[kKv].delete(...a); }
    list(...a) { return this[kUsable]('list') || this[kKv].list(...a); }
    getAlarm(...a) { return this[kUsable]('getAlarm') || this[kAlarms].getAlarm(...a); }
    setAlarm(...a) { return this[kUsable]('setAlarm') || this[kAlarms].setAlarm(...a); }
    deleteAlarm(...a) { return this[kUsable]('deleteAlarm') || this[kAlarms].deleteAlarm(...a); }
    deleteAll() { return Promise.reject(new Error('Cannot call deleteAll() within a transaction')); }
    rollback() {
      const s = this[kState];
      if (s.rolledBack || s.aborted) return;
      s.rolledBack = true;
      const i = openTxns.indexOf(s);
      if (i >= 0) openTxns.splice(i, 1);
      s.nested(ROLLBACK);
    }
  }

  /**
   * @param bridge   StorageBridge
   * @param options  { hasAlarmHandler(), deleteAllDeletesAlarm, block(fn) (the input gate, without
   *                 breaking the object), settle (how KV promises settle; see dispatch.js) }
   */
  internal.newStorage = function (bridge, options) {
    const check = makeCheck(bridge);
    const nested = (op) => check(bridge.nested(op));
    const settle = options.settle;
    const sql = internal.newSqlStorage(bridge, check);
    const kv = internal.newKvStorage(bridge, check, settle);
    let syncKv = null;

    const alarms = {
      getAlarm() { return settle(() => { const t = check(bridge.getAlarm()); return t < 0 ? null : t; }); },
      setAlarm(time) {
        return settle(() => {
          if (!options.hasAlarmHandler()) throw new TypeError('Your Durable Object class must have an alarm() handler in order to call setAlarm()');
          const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : NaN;
          if (!Number.isFinite(ms)) throw new TypeError("Failed to execute 'setAlarm' on 'DurableObjectStorage': parameter 1 is not of type 'Date or number'.");
          check(bridge.setAlarm(ms));
        });
      },
      deleteAlarm() { return settle(() => { check(bridge.deleteAlarm()); }); },
    };

    async function runTransaction(closure) {
      const state = { rolledBack: false, aborted: null, nested };
      nested(BEGIN);
      openTxns.push(state);
      let error = null;
      let value;
      try {
        value = await closure(new DurableObjectTransaction(state, kv, alarms));
      } catch (e) {
        error = e;
      }
      // Inner transactions the callback left running end with it.
      while (openTxns.length > 0 && openTxns[openTxns.length - 1] !== state && openTxns.includes(state)) {
        const inner = openTxns.pop();
        inner.aborted = new Error('storage.transaction(): an enclosing transaction ended before this one');
        nested(ROLLBACK);
      }
      if (state.aborted) return { isError: true, value: state.aborted };
      const i = openTxns.indexOf(state);
      if (i >= 0) {
        openTxns.splice(i, 1);
        try { nested(error === null ? COMMIT : ROLLBACK); } catch (e) { return { isError: true, value: e }; }
      }
      return error === null ? { isError: false, value } : { isError: true, value: error };
    }

    const pitr = (op, arg) => new Promise((resolve, reject) => host.pitr(op, arg, (ok, value, isTypeError) => {
      if (ok) resolve(value); else reject(isTypeError ? new TypeError(value) : new Error(value));
    }));

    const storage = {
      get sql() { return sql; },
      get kv() { return syncKv || (syncKv = internal.newSyncKv(bridge, check)); },
      get: kv.get,
      put: kv.put,
      delete: kv.delete,
      list: kv.list,
      getAlarm: alarms.getAlarm,
      setAlarm: alarms.setAlarm,
      deleteAlarm: alarms.deleteAlarm,
      deleteAll() {
        return settle(() => {
          // Before compatibility date 2026-02-24 (flag delete_all_deletes_alarm) the alarm survives.
          const alarm = options.deleteAllDeletesAlarm ? -1 : check(bridge.getAlarm());
          dropSqlObjects(sql);
          check(bridge.kvDeleteAll());
          if (alarm >= 0) check(bridge.setAlarm(alarm));
        });
      },
      transactionSync(fn) {
        if (typeof fn !== 'function') throw new TypeError("Failed to execute 'transactionSync' on 'DurableObjectStorage': parameter 1 is not of type 'function'.");
        nested(BEGIN);
        let result;
        try { result = fn(); } catch (e) { nested(ROLLBACK); throw e; }
        nested(COMMIT);
        return result;
      },
      transaction(closure) {
        if (typeof closure !== 'function') {
          return Promise.reject(new TypeError("Failed to execute 'transaction' on 'DurableObjectStorage': parameter 1 is not of type 'Function'."));
        }
        return options.block(() => runTransaction(closure)).then((r) => { if (r.isError) throw r.value; return r.value; });
      },
      sync() { return Promise.resolve(); },
      // Point-in-time recovery (PitrCalls.java): bookmarks are opaque strings that sort by time.
      getCurrentBookmark() { return pitr('current', null); },
      getBookmarkForTime(timestamp) {
        const ms = timestamp instanceof Date ? timestamp.getTime() : timestamp;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
          return Promise.reject(new TypeError("Failed to execute 'getBookmarkForTime' on 'DurableObjectStorage': parameter 1 is not a valid timestamp (a Date or milliseconds since the epoch)."));
        }
        return pitr('forTime', String(Math.floor(ms)));
      },
      onNextSessionRestoreBookmark(bookmark) {
        if (typeof bookmark !== 'string') {
          return Promise.reject(new TypeError("Failed to execute 'onNextSessionRestoreBookmark' on 'DurableObjectStorage': parameter 1 is not of type 'string'."));
        }
        return pitr('restore', bookmark);
      },
    };
    Object.defineProperty(storage, Symbol.toStringTag, { value: 'DurableObjectStorage' });
    return storage;
  };
});
