// D1 against workerd: each case is one scenario on env.DB (a database shared by every case, in
// order); the answer is JSON of what it returned or threw. What differs by nature between two
// hosts — durations, file sizes, the served_by name, bookmark values — is replaced by its type or
// shape, and so are rows_read/rows_written: workerd counts them inside its patched SQLite (rows
// scanned, index entries written), cellgate counts rows returned and rows changed (docs/d1.md;
// the case rows-counts shows ours). Everything else is compared as it is.
const shape = (v) => (typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/.test(v) ? 'bookmark' : v);
function norm(v) {
  if (Array.isArray(v)) return v.map(norm);
  if (v !== null && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) {
      o[k] = k === 'meta' && x && typeof x === 'object'
        ? Object.fromEntries(Object.entries(x).map(([mk, mv]) => [mk, ['duration', 'size_after', 'served_by', 'rows_read', 'rows_written'].includes(mk) ? typeof mv : mv]))
        : k === 'duration' ? typeof x : norm(x);
    }
    return o;
  }
  return shape(v);
}
async function outcome(f) {
  try {
    return { ok: norm(await f()) };
  } catch (e) {
    return { threw: e.constructor.name, message: e.message, cause: e.cause ? e.cause.constructor.name + ': ' + e.cause.message : null };
  }
}
const count = async (DB, where) => (await DB.prepare('SELECT count(*) AS n FROM t WHERE ' + where).first('n'));

const CASES = {
  'exec-schema': (DB) => DB.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, b BLOB, r REAL);\n\nCREATE INDEX t_name ON t(name);\nINSERT INTO t (name) VALUES ('x')"),
  'run-insert': (DB) => DB.prepare('INSERT INTO t (name, b, r) VALUES (?, ?, ?)').bind('a', new Uint8Array([1, 2, 3]), 1.5).run(),
  'run-insert-arraybuffer': (DB) => DB.prepare('INSERT INTO t (name, b) VALUES (?, ?)').bind('ab', new Uint8Array([9, 8]).buffer).run(),
  'all': (DB) => DB.prepare('SELECT id, name, b, r FROM t ORDER BY id').all(),
  'first-row': (DB) => DB.prepare('SELECT id, name FROM t ORDER BY id').first(),
  'first-column': (DB) => DB.prepare('SELECT id, name FROM t ORDER BY id').first('name'),
  'first-missing-column': (DB) => DB.prepare('SELECT id, name FROM t ORDER BY id').first('nope'),
  'first-no-row': (DB) => DB.prepare('SELECT id FROM t WHERE id < 0').first(),
  'first-no-row-column': (DB) => DB.prepare('SELECT id FROM t WHERE id < 0').first('id'),
  'raw': (DB) => DB.prepare('SELECT id, name FROM t ORDER BY id').raw(),
  'raw-column-names': (DB) => DB.prepare('SELECT id, name FROM t ORDER BY id').raw({ columnNames: true }),
  'raw-column-names-false': (DB) => DB.prepare('SELECT 1 AS a').raw({ columnNames: false }),
  'raw-blob': (DB) => DB.prepare("SELECT x'ff00' AS a").raw(),
  'raw-on-write': (DB) => DB.prepare("INSERT INTO t (name) VALUES ('w2')").raw({ columnNames: true }),
  'first-on-write': (DB) => DB.prepare("INSERT INTO t (name) VALUES ('w1')").first(),
  'returning': (DB) => DB.prepare("INSERT INTO t (name) VALUES (?) RETURNING name").bind('w3').all(),
  'update-changes': (DB) => DB.prepare("UPDATE t SET r = 2.5 WHERE name LIKE 'w%'").run(),
  'delete-changes': (DB) => DB.prepare("DELETE FROM t WHERE name = 'w1'").run(),
  'select-meta': (DB) => DB.prepare('SELECT 1 AS one').run(),
  'result-keys': async (DB) => Object.keys(await DB.prepare('SELECT 1').all()),
  'duplicate-columns': (DB) => DB.prepare('SELECT 1 AS a, 2 AS a').all(),
  'duplicate-columns-raw': (DB) => DB.prepare('SELECT 1 AS a, 2 AS a').raw({ columnNames: true }),
  'value-types': (DB) => DB.prepare("SELECT 1 AS i, 1.5 AS f, 'x' AS s, NULL AS n, x'0102' AS b, 9007199254740993 AS big").first(),
  'bind-null': (DB) => DB.prepare('SELECT ? AS v').bind(null).first(),
  'bind-booleans': (DB) => DB.prepare('SELECT ? AS t, ? AS f').bind(true, false).first(),
  'bind-nan-infinity': (DB) => DB.prepare('SELECT ? AS a, ? AS b, typeof(?) AS ta').bind(NaN, Infinity, NaN).first(),
  'bind-numbered': (DB) => DB.prepare('SELECT ?2 AS a, ?1 AS b').bind('one', 'two').first(),
  'bind-typed-array-views': (DB) => DB.prepare('SELECT ? AS u16, ? AS dv, ? AS arr').bind(new Uint16Array([1, 256]), new DataView(new ArrayBuffer(3)), [4, 5]).first(),
  'bind-big-number': (DB) => DB.prepare('SELECT ? AS a').bind(2 ** 60).first(),
  'bind-undefined': (DB) => DB.prepare('SELECT ?').bind(undefined).all(),
  'bind-object': (DB) => DB.prepare('SELECT ?').bind({}).all(),
  'bind-date': (DB) => DB.prepare('SELECT ?').bind(new Date(0)).all(),
  'bind-bigint': (DB) => DB.prepare('SELECT ?').bind(10n).all(),
  'bind-function': (DB) => DB.prepare('SELECT ?').bind(function f() { return 1; }).all(),
  'bind-returns-new-statement': async (DB) => { const s = DB.prepare('SELECT ? AS a'); const one = s.bind(1); const two = s.bind(2); return [await one.first('a'), await two.first('a'), one === s]; },
  'bind-too-many': (DB) => DB.prepare('SELECT ?').bind(1, 2).all(),
  'bind-too-few': (DB) => DB.prepare('SELECT ?, ?').bind(1).all(),
  'bind-none': (DB) => DB.prepare('SELECT ?').all(),
  'no-such-table': (DB) => DB.prepare('SELECT * FROM nope').all(),
  'empty-sql': (DB) => DB.prepare('').all(),
  'several-statements-in-prepare': (DB) => DB.prepare('SELECT 1 AS a; SELECT 2 AS b').all(),
  'batch': (DB) => DB.batch([DB.prepare('INSERT INTO t (name) VALUES (?)').bind('b1'), DB.prepare("SELECT count(*) AS n FROM t WHERE name = 'b1'")]),
  'batch-rolls-back-entirely': async (DB) => {
    let error = null;
    try {
      await DB.batch([DB.prepare("INSERT INTO t (name) VALUES ('b2')"), DB.prepare("UPDATE t SET name = 'changed' WHERE name = 'a'"), DB.prepare('SELECT * FROM nope')]);
    } catch (e) { error = e.message; }
    return [error, await count(DB, "name = 'b2'"), await count(DB, "name = 'changed'")];
  },
  'batch-bind-error': (DB) => DB.batch([DB.prepare('SELECT ?').bind(undefined)]),
  'batch-empty': (DB) => DB.batch([]),
  'batch-not-array': (DB) => DB.batch('SELECT 1'),
  'batch-several-statements-in-one': (DB) => DB.batch([DB.prepare("INSERT INTO t (name) VALUES ('m1'); INSERT INTO t (name) VALUES ('m2')")]),
  'batch-statements-of-a-session': async (DB) => DB.batch([DB.withSession().prepare('SELECT 1 AS x')]),
  'exec-count': (DB) => DB.exec('SELECT 1;SELECT 2;\nSELECT 3'),
  'exec-error': (DB) => DB.exec('SELECT 1; SELECT * FROM nope;'),
  'syntax-error': (DB) => DB.prepare('SELEC 1').all(),
  'exec-error-later-line': (DB) => DB.exec('SELECT 1;\nINSERT INTO nope VALUES (1);\nSELECT 3'),
  'exec-rolls-back': async (DB) => { try { await DB.exec("INSERT INTO t (name) VALUES ('e1');\nINSERT INTO nope VALUES (1);"); } catch (e) { /* counted below */ } return count(DB, "name = 'e1'"); },
  'exec-empty': (DB) => DB.exec(''),
  'exec-undefined': (DB) => DB.exec(),
  'dump': async (DB) => (await DB.dump()).byteLength,
  'session-first-unconstrained': async (DB) => { const s = DB.withSession('first-unconstrained'); const before = s.getBookmark(); const r = await s.prepare('SELECT 1 AS one').first(); return [before, r, s.getBookmark()]; },
  'session-first-primary': async (DB) => { const s = DB.withSession('first-primary'); const before = s.getBookmark(); await s.prepare("INSERT INTO t (name) VALUES ('s1')").run(); return [before, s.getBookmark()]; },
  'session-default': async (DB) => { const s = DB.withSession(); return [s.getBookmark(), await s.batch([s.prepare('SELECT 2 AS two')])]; },
  'session-from-bookmark': async (DB) => {
    const s = DB.withSession('first-primary');
    await s.prepare("INSERT INTO t (name) VALUES ('s2')").run();
    const mark = s.getBookmark();
    const next = DB.withSession(mark);
    const started = next.getBookmark() === mark;
    const seen = await next.prepare("SELECT count(*) AS n FROM t WHERE name = 's2'").first('n');
    return [started, seen, next.getBookmark() >= mark];
  },
  'session-bookmarks-grow': async (DB) => {
    const s = DB.withSession('first-primary');
    await s.prepare("INSERT INTO t (name) VALUES ('g1')").run();
    const a = s.getBookmark();
    await s.prepare("INSERT INTO t (name) VALUES ('g2')").run();
    return s.getBookmark() > a;
  },
  'session-number': (DB) => DB.withSession(5),
  'session-garbage-bookmark': (DB) => DB.withSession('garbage').prepare('SELECT 1 AS one').first(),
  'bind-number-storage-class': (DB) => DB.prepare('SELECT typeof(?) AS i, typeof(?) AS f, typeof(?) AS t').bind(2, 2.5, true).first(),
  'session-prototype': (DB) => [Object.getPrototypeOf(DB.withSession()).constructor.name, typeof DB.withSession().exec, typeof DB.withSession().getBookmark],
  'prototypes': (DB) => [Object.getPrototypeOf(DB).constructor.name, Object.getOwnPropertyNames(Object.getPrototypeOf(DB)),
    Object.getPrototypeOf(DB.prepare('SELECT 1')).constructor.name, Object.getOwnPropertyNames(Object.getPrototypeOf(DB.prepare('SELECT 1')))],
  'error-shape': async (DB) => { try { await DB.prepare('SELECT * FROM nope').all(); return 'no error'; } catch (e) { return [e instanceof Error, e.name, String(e), typeof e.stack]; } },
  'rows-counts': async (DB) => {
    const m = async (sql) => { const r = await DB.prepare(sql).run(); return [r.meta.rows_read, r.meta.rows_written]; };
    return [await m('SELECT 1'), await m("SELECT name FROM t WHERE name = 'a'"), await m("INSERT INTO t (name) VALUES ('rc')"), await m("DELETE FROM t WHERE name = 'rc'")];
  },
  'from-a-durable-object': async (DB, env) => [await (await env.READER.get(env.READER.idFromName('r')).fetch('http://do/')).json(), await count(DB, "name = 'from-object'")],
  'second-binding-same-database': async (DB, env) => [await env.SAME.prepare("SELECT count(*) AS n FROM t WHERE name = 'a'").first('n'), await env.OTHER.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'").first('n')],
};

// A Durable Object's env has the same D1 binding: its call goes from the object's cell to the database's.
export class Reader {
  constructor(ctx, env) { this.env = env; }
  async fetch() {
    const n = await this.env.DB.prepare("SELECT count(*) AS n FROM t WHERE name = 'a'").first('n');
    const r = await this.env.DB.batch([this.env.DB.prepare("INSERT INTO t (name) VALUES ('from-object')")]);
    return Response.json([n, r[0].meta.changes]);
  }
}

export default {
  async fetch(request, env) {
    const name = new URL(request.url).pathname.slice('/case/'.length);
    const run = CASES[name];
    if (run === undefined) return new Response('no case ' + name, { status: 404 });
    return Response.json(await outcome(() => run(env.DB, env)));
  },
};
