// SQL API and transaction cases, run inside a Durable Object (Store.run) on this.ctx.storage.
import { attempt, attemptShort, describe, keys, sleep } from './describe.js';

function table(sql) {
  sql.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  return sql.exec("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
}

export const sqlCases = {
  'sql-cursor': (s) => {
    const sql = s.sql;
    const ins = table(sql);
    const c = sql.exec('SELECT * FROM t ORDER BY a');
    const first = c.next();
    const rest = c.toArray();
    const iterated = [];
    for (const row of sql.exec('SELECT a FROM t ORDER BY a DESC')) iterated.push(row.a);
    return {
      insert: [ins.rowsWritten, ins.columnNames, ins.toArray()],
      first, rest, after: [c.rowsRead, c.rowsWritten], again: c.toArray(), done: c.next(), columns: c.columnNames,
      iterated, spread: [...sql.exec('SELECT b FROM t WHERE a < 3 ORDER BY a')],
    };
  },
  'sql-one': async (s) => {
    const sql = s.sql;
    table(sql);
    return {
      one: sql.exec('SELECT b FROM t WHERE a = 2').one(),
      none: await attempt(() => sql.exec('SELECT b FROM t WHERE a = 9').one()),
      many: await attempt(() => sql.exec('SELECT b FROM t').one()),
      afterNext: await attempt(() => { const c = sql.exec('SELECT b FROM t WHERE a < 3 ORDER BY a'); c.next(); return c.one(); }),
      count: sql.exec('SELECT count(*) AS n FROM t').one(),
    };
  },
  'sql-raw': (s) => {
    const sql = s.sql;
    table(sql);
    const raw = sql.exec('SELECT a, b FROM t ORDER BY a').raw();
    const firstRaw = raw.next();
    return {
      tag: Object.prototype.toString.call(sql.exec('SELECT 1').raw()), firstRaw, restRaw: raw.toArray(), spread: [...sql.exec('SELECT a FROM t ORDER BY a').raw()],
      dupNames: sql.exec('SELECT 1 AS a, 2 AS a').columnNames, dupRow: sql.exec('SELECT 1 AS a, 2 AS a').one(),
      dupRaw: sql.exec('SELECT 1 AS a, 2 AS a').raw().toArray(), mixed: (() => { const c = sql.exec('SELECT a FROM t ORDER BY a'); c.next(); return c.raw().toArray(); })(),
    };
  },
  'sql-types': (s) => {
    const sql = s.sql;
    sql.exec('CREATE TABLE v (x)');
    const blob = new Uint8Array([0, 1, 255]);
    sql.exec('INSERT INTO v VALUES (?), (?), (?), (?), (?)', 1.25, 'text', null, blob, -0.5);
    sql.exec('CREATE TABLE n (i INTEGER, r REAL)');
    sql.exec('INSERT INTO n VALUES (?, ?)', 7, 7);
    const rows = sql.exec('SELECT x, typeof(x) AS t FROM v ORDER BY rowid').toArray();
    return {
      rows: rows.map((r) => [describe(r.x), r.t]), affinity: sql.exec('SELECT i, typeof(i) AS ti, r, typeof(r) AS tr FROM n').one(),
      literals: sql.exec("SELECT 9007199254740993 AS big, 42 AS int, 'a' || 'b' AS text, x'00ff' AS blob").raw().toArray().map((r) => r.map(describe)),
    };
  },
  'sql-integer-binding': (s) => {
    const r = s.sql.exec('SELECT typeof(?) AS t, ? AS v', 12, 12).one();
    return [r.t, r.v];
  },
  'sql-bindings': async (s) => {
    const sql = s.sql;
    const bind = (v) => attempt(() => { const r = sql.exec('SELECT ? AS v, typeof(?) AS t', v, v).one(); return [r.t, r.v]; });
    return {
      bool: await bind(false), date: await bind(new Date(5)), object: await bind({}), array: await bind([1, 2]),
      bigint: await bind(5n), undef: await bind(undefined), nul: await bind(null), float: await bind(0.5), nan: await bind(NaN),
      u16: await bind(new Uint16Array([1, 2])), str: await bind('s'), numbered: sql.exec('SELECT ?2 AS a, ?1 AS b', 'one', 'two').one(),
    };
  },
  'sql-statements': (s) => {
    const sql = s.sql;
    const multi = sql.exec('CREATE TABLE m (a); INSERT INTO m VALUES (1); INSERT INTO m VALUES (2); SELECT count(*) AS n FROM m');
    return {
      multi: multi.toArray(), columns: multi.columnNames,
      trailing: sql.exec('SELECT 1 AS one;').toArray(), comments: sql.exec('-- leading\nSELECT 2 AS two /* inline */').toArray(),
      returning: sql.exec('INSERT INTO m VALUES (3) RETURNING a').toArray(), update: sql.exec('UPDATE m SET a = a + 10').rowsWritten,
    };
  },
  'sql-errors': async (s) => {
    const sql = s.sql;
    sql.exec('CREATE TABLE u (a UNIQUE)');
    sql.exec('INSERT INTO u VALUES (1)');
    return {
      noTable: await attempt(() => sql.exec('SELECT * FROM nope')),
      syntax: await attemptShort(() => sql.exec('SELEC 1')),
      unique: await attemptShort(() => sql.exec('INSERT INTO u VALUES (1)')),
      noArgs: await attempt(() => sql.exec()),
      afterError: sql.exec('SELECT count(*) AS n FROM u').one(),
    };
  },
  'sql-refused': async (s) => {
    const name = async (q) => (await attempt(() => s.sql.exec(q)))[1];
    return { begin: await name('BEGIN'), commit: await name('COMMIT'), savepoint: await name('SAVEPOINT x'), cf: await name('SELECT * FROM _cf_KV') };
  },
  'sql-database-size': (s) => {
    const before = s.sql.databaseSize;
    s.sql.exec('CREATE TABLE big (b BLOB)');
    s.sql.exec('INSERT INTO big VALUES (?)', new Uint8Array(200_000));
    const after = s.sql.databaseSize;
    return { type: typeof before, positive: before > 0, grew: after - before >= 200_000, pageMultiple: after % 512 === 0 };
  },
  'transaction-sync': async (s) => {
    const sql = s.sql;
    sql.exec('CREATE TABLE t (a)');
    s.kv.put('warm', 0); // the KV table exists before the rollback (see kv-first-write-rolled-back)
    const thrown = await attempt(() => s.transactionSync(() => { sql.exec('INSERT INTO t VALUES (1)'); s.kv.put('k', 1); throw new RangeError('boom'); }));
    const value = s.transactionSync(() => { sql.exec('INSERT INTO t VALUES (2)'); return 'committed'; });
    const nested = s.transactionSync(() => {
      sql.exec('INSERT INTO t VALUES (3)');
      try { s.transactionSync(() => { sql.exec('INSERT INTO t VALUES (4)'); throw new Error('inner'); }); } catch (e) { /* inner rolled back */ }
      return 'outer';
    });
    return { thrown, value, nested, rows: sql.exec('SELECT a FROM t ORDER BY a').toArray(), k: describe(s.kv.get('k')), notFn: await attempt(() => s.transactionSync(5)) };
  },
  'transaction-async': async (s) => {
    await s.put('x', 1);
    const thrown = await attempt(() => s.transaction(async (txn) => { await txn.put('x', 2); await txn.put('y', 2); throw new TypeError('abort txn'); }));
    const afterThrow = [describe(await s.get('x')), describe(await s.get('y'))];
    const committed = await s.transaction(async (txn) => { await txn.put('x', 3); return [describe(await txn.get('x')), keys(await txn.list())]; });
    const sqlInside = await attempt(() => s.transaction(async () => { s.sql.exec('CREATE TABLE q (a)'); throw new Error('undo table'); }));
    const tableGone = s.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'q'").one().n;
    return { thrown, afterThrow, committed, x: await s.get('x'), sqlInside, tableGone };
  },
  'transaction-rollback': async (s) => {
    await s.put('x', 1);
    const rolled = await attempt(() => s.transaction(async (txn) => { await txn.put('x', 2); txn.rollback(); txn.rollback(); return 'rb-result'; }));
    const getAfter = await attempt(() => s.transaction(async (txn) => { txn.rollback(); return await txn.get('x'); }));
    const putAfter = await attempt(() => s.transaction(async (txn) => { txn.rollback(); await txn.put('x', 9); return 'put ok'; }));
    const deleteAll = await attempt(() => s.transaction(async (txn) => { await txn.deleteAll(); return 'ok'; }));
    return { rolled, getAfter, putAfter, deleteAll, x: await s.get('x') };
  },
};
