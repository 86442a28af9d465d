// D1 (env.<d1 binding>): the database is a cell of the built-in Durable Object class below
// (runtime-core D1Cells: its id comes from the database_id, so every binding of one database meets
// in one cell). The Worker's side is the Workers API — argument conversion, D1's type mapping and
// its error texts — and sends each query, batch or exec as ONE RPC call to the cell, which runs it
// in one transactionSync on its own SQLite: atomic, gated and replicated like any cell's turn.
// docs/d1.md has the semantics; miniflare 4.20260730.0 is the reference (D1ConformanceTest).
(function (host, internal) {
  'use strict';
  const CELL_CLASS = '$cellgate$D1';
  const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
  const CONSTRAINTS = ['first-primary', 'first-unconstrained'];
  const kCell = Symbol('D1Database.cell');
  const kSession = Symbol('D1PreparedStatement.session');
  const kSql = Symbol('D1PreparedStatement.sql');
  const kParams = Symbol('D1PreparedStatement.params');
  const kBookmark = Symbol('D1DatabaseSession.bookmark');
  const kConstraint = Symbol('D1DatabaseSession.constraint');
  const CREATE = Symbol('create');

  // D1's errors: "<PREFIX>: <text>" whose cause is an Error of the bare text.
  const d1Error = (prefix, text) => new Error(prefix + ': ' + text, { cause: new Error(text) });

  // A bound value as D1 carries it (JSON on Cloudflare): booleans are 1/0, non-finite numbers
  // null, bytes (ArrayBuffer, any view, an array) a list of byte values; anything else is refused.
  function d1Value(v) {
    if (v === null) return null;
    switch (typeof v) {
      case 'string': return v;
      case 'number': return Number.isFinite(v) ? v : null;
      case 'boolean': return v ? 1 : 0;
      case 'object':
        if (v instanceof ArrayBuffer) return Array.from(new Uint8Array(v));
        if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v);
        break;
      default:
        break;
    }
    const text = `Type '${typeof v}' not supported for value '${v}'`;
    throw d1Error('D1_TYPE_ERROR', text);
  }

  // ---- the Worker's side ----

  /** One RPC call to the database's cell; a failed query comes back as {error}, a failed call rejects as it is. */
  async function send(session, queries, format) {
    if (session[kBookmark] !== null && !BOOKMARK.test(session[kBookmark])) {
      throw d1Error('D1_ERROR', 'invalid bookmark: ' + session[kBookmark]);
    }
    const answer = await session[kCell].stub.d1(queries, format);
    if (answer.bookmark !== undefined && (session[kBookmark] === null || answer.bookmark > session[kBookmark])) {
      session[kBookmark] = answer.bookmark;
    }
    return answer;
  }

  async function queryResults(statement, format) {
    const answer = await send(statement[kSession], [{ sql: statement[kSql], params: statement[kParams] }], format);
    if (answer.error !== undefined) throw d1Error('D1_ERROR', answer.error);
    return answer.results[answer.results.length - 1];
  }

  class D1PreparedStatement {
    [kSession]; [kSql]; [kParams];
    constructor(key, session, sql, params) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kSession] = session; this[kSql] = sql; this[kParams] = params;
    }
    bind(...values) {
      return new D1PreparedStatement(CREATE, this[kSession], this[kSql], values.map(d1Value));
    }
    async first(column) {
      const result = await queryResults(this, 'ARRAY_OF_OBJECTS');
      const row = result.results.length === 0 ? null : result.results[0];
      if (column === undefined) return row;
      if (row === null) return null;
      if (!(column in row)) throw new Error('D1_COLUMN_NOTFOUND: Column not found (' + column + ')', { cause: new Error('Column not found') });
      return row[column];
    }
    async run() { return queryResults(this, 'ARRAY_OF_OBJECTS'); }
    async all() { return queryResults(this, 'ARRAY_OF_OBJECTS'); }
    async raw(options) {
      const result = await queryResults(this, 'ROWS_AND_COLUMNS');
      const rows = result.results.rows;
      return options && options.columnNames ? [result.results.columns, ...rows] : rows;
    }
  }

  function prepare(session, sql) {
    return new D1PreparedStatement(CREATE, session, sql, []);
  }

  async function batch(session, statements) {
    const queries = statements.map((s) => {
      if (!(s instanceof D1PreparedStatement)) {
        throw new TypeError("Failed to execute 'batch' on 'D1Database': every statement must be a D1PreparedStatement (from prepare())");
      }
      return { sql: s[kSql], params: s[kParams] };
    });
    const answer = await send(session, queries, 'ARRAY_OF_OBJECTS');
    if (answer.error !== undefined) throw d1Error('D1_ERROR', answer.error);
    return answer.results;
  }

  class D1DatabaseSession {
    [kCell]; [kBookmark]; [kConstraint];
    constructor(key, cell, constraintOrBookmark) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kCell] = cell;
      this[kConstraint] = CONSTRAINTS.includes(constraintOrBookmark) ? constraintOrBookmark : null;
      this[kBookmark] = this[kConstraint] === null ? constraintOrBookmark : null;
    }
    prepare(sql) { return prepare(this, sql); }
    batch(statements) { return batch(this, statements); }
    /** The newest bookmark this session has seen (null before its first query unless it started from one). */
    getBookmark() { return this[kBookmark]; }
  }

  class D1Database {
    [kCell];
    constructor(key, cell) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kCell] = cell;
      cell.session = new D1DatabaseSession(CREATE, cell, 'first-unconstrained');
    }
    prepare(sql) { return prepare(this[kCell].session, sql); }
    batch(statements) { return batch(this[kCell].session, statements); }
    async exec(query) {
      if (query === undefined || query === null) throw new TypeError(`Cannot read properties of ${query} (reading 'trim')`);
      // One statement text per line, all in one transaction; the error names the first line, as
      // workerd's client reports the single error D1's simulator answers for the whole call.
      const lines = String(query).trim().split('\n');
      const answer = await send(this[kCell].session, lines.map((sql) => ({ sql, params: [] })), 'NONE');
      if (answer.error !== undefined) throw d1Error('D1_EXEC_ERROR', 'Error in line 1: ' + lines[0] + ': ' + answer.error);
      return { count: answer.results.length, duration: answer.results.reduce((sum, r) => sum + r.meta.duration, 0) };
    }
    withSession(constraintOrBookmark) {
      if (constraintOrBookmark === undefined || constraintOrBookmark === null) constraintOrBookmark = 'first-unconstrained';
      if (typeof constraintOrBookmark !== 'string') throw new TypeError('constraintOrBookmark?.trim is not a function');
      return new D1DatabaseSession(CREATE, this[kCell], constraintOrBookmark.trim());
    }
    async dump() {
      // Cloudflare's dump() serves only deprecated alpha databases, miniflare has none: refused by name.
      throw d1Error('D1_DUMP_ERROR', 'dump() is not supported by cellgate (Cloudflare serves it only for alpha databases); '
        + "export with SELECT queries or 'deploy-tool d1 execute' instead");
    }
  }

  // ---- the database's cell ----

  const bytesOut = (v) => (v instanceof ArrayBuffer ? Array.from(new Uint8Array(v)) : v);
  const bytesIn = (v) => (Array.isArray(v) ? new Uint8Array(v).buffer : v);
  // A statement text that is not only blanks and comment lines.
  const meaningful = (sql) => typeof sql === 'string' && sql.split('\n').some((line) => {
    const t = line.trim();
    return t !== '' && !t.startsWith('--');
  });
  const messageOf = (e) => (e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e));
  const BOOKMARK_KEY = 'd1.bookmark';
  const bookmarkText = (n) => '00000000-' + n.toString(16).padStart(8, '0') + '-00000000-' + '0'.repeat(32);

  class D1DatabaseCell {
    constructor(ctx) { this.ctx = ctx; }

    /**
     * Runs `queries` ([{sql, params}]) in one transaction: every result, or {error} with nothing
     * applied. `format`: ARRAY_OF_OBJECTS (rows as objects), ROWS_AND_COLUMNS ({columns, rows}) or
     * NONE (no rows). The bookmark counts the transactions that changed the database.
     */
    d1(queries, format) {
      const sql = this.ctx.storage.sql;
      const kv = this.ctx.storage.kv;
      const todo = queries.filter((q) => meaningful(q.sql));
      if (todo.length === 0) return { error: 'No SQL statements detected.', bookmark: bookmarkText(kv.get(BOOKMARK_KEY) || 0) };
      let results;
      try {
        results = this.ctx.storage.transactionSync(() => {
          const out = todo.map((q) => this.run(sql, q, format));
          if (out.some((r) => r.meta.changed_db)) kv.put(BOOKMARK_KEY, (kv.get(BOOKMARK_KEY) || 0) + 1);
          return out;
        });
      } catch (e) {
        return { error: messageOf(e), bookmark: bookmarkText(kv.get(BOOKMARK_KEY) || 0) };
      }
      return { results, bookmark: bookmarkText(kv.get(BOOKMARK_KEY) || 0) };
    }

    /**
     * The operator's way in (`deploy-tool d1 execute` through the node's POST /d1/<scope>): a JSON
     * body {queries: [{sql, params?}]} runs as one transaction; the answer is d1()'s, as JSON.
     * No Worker holds a stub to this class (it is not among the exports), only env.DB's own.
     */
    async fetch(request) {
      if (request.method !== 'POST') return Response.json({ error: 'POST a JSON body {queries: [{sql, params}]}' }, { status: 405 });
      let body;
      try { body = await request.json(); } catch (e) { return Response.json({ error: 'the body is not JSON: ' + messageOf(e) }, { status: 400 }); }
      if (body === null || !Array.isArray(body.queries) || !body.queries.every((q) => q !== null && typeof q.sql === 'string'
        && (q.params === undefined || Array.isArray(q.params)))) {
        return Response.json({ error: 'the body must be {queries: [{sql: string, params?: array}]}' }, { status: 400 });
      }
      return Response.json(this.d1(body.queries.map((q) => ({ sql: q.sql, params: q.params || [] })), 'ARRAY_OF_OBJECTS'));
    }

    run(sql, query, format) {
      const changesNow = () => sql.exec('SELECT total_changes() AS c, last_insert_rowid() AS r').one();
      const started = performance.now();
      const sizeBefore = sql.databaseSize;
      const before = changesNow();
      const cursor = sql.exec(query.sql, ...(query.params || []).map(bytesIn));
      const columns = cursor.columnNames;
      const rows = format === 'NONE' ? [] : cursor.raw().toArray().map((row) => row.map(bytesOut));
      const after = changesNow();
      const sizeAfter = sql.databaseSize;
      const changes = after.c - before.c;
      let results;
      if (format === 'ROWS_AND_COLUMNS') {
        results = { columns, rows };
      } else {
        // A repeated column name keeps the last value, as D1 does.
        results = rows.map((row) => { const o = {}; columns.forEach((name, i) => { o[name] = row[i]; }); return o; });
      }
      return {
        success: true,
        meta: {
          served_by: 'cellgate.d1',
          duration: performance.now() - started,
          changes,
          last_row_id: after.r,
          changed_db: changes !== 0 || after.r !== before.r || sizeAfter !== sizeBefore,
          size_after: sizeAfter,
          rows_read: cursor.rowsRead,
          rows_written: cursor.rowsWritten,
        },
        results,
      };
    }
  }
  internal.builtinClasses[CELL_CLASS] = D1DatabaseCell;

  return (target, settings, name) => {
    const colon = target.indexOf(':');
    const cell = { stub: internal.newStub(internal.newId(target.slice(0, colon), target.slice(colon + 1), undefined)), session: null };
    return new D1Database(CREATE, cell);
  };
});
