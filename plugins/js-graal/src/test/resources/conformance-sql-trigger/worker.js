// Triggers through ctx.storage.sql.exec(): the same bundle runs on workerd and on cellgate
// (SqlTriggerConformanceTest.java). GET /case/<name> answers JSON; each case has its own object.
import { DurableObject } from 'cloudflare:workers';

const outcome = (f) => {
  try {
    return ['ok', f()];
  } catch (e) {
    return ['error', e?.name];
  }
};

const cases = {
  'trigger-body-with-case': (sql) => {
    sql.exec(`CREATE TABLE t (a INTEGER); CREATE TABLE u (n INTEGER); INSERT INTO u VALUES (0);
              CREATE TABLE log (what TEXT)`);
    sql.exec(`CREATE TRIGGER tr AFTER INSERT ON t BEGIN
                UPDATE u SET n = CASE WHEN n >= 2 THEN 100 ELSE n + 1 END;
                INSERT INTO log VALUES (CASE new.a WHEN 1 THEN 'one' ELSE 'many' END);
              END;`);
    for (const a of [1, 2, 3]) sql.exec('INSERT INTO t VALUES (?)', a);
    return { n: sql.exec('SELECT n FROM u').one().n, log: sql.exec('SELECT what FROM log ORDER BY rowid').toArray() };
  },
  'trigger-when-clause-with-case': (sql) => {
    sql.exec(`CREATE TABLE t (a INTEGER); CREATE TABLE seen (a INTEGER);
              CREATE TRIGGER tr AFTER INSERT ON t WHEN CASE WHEN new.a > 1 THEN 1 ELSE 0 END BEGIN
                INSERT INTO seen VALUES (new.a);
              END`);
    for (const a of [1, 2, 3]) sql.exec('INSERT INTO t VALUES (?)', a);
    return sql.exec('SELECT a FROM seen ORDER BY a').toArray();
  },
  'trigger-then-statements-in-one-exec': (sql) => {
    const c = sql.exec(`CREATE TABLE t (a INTEGER); CREATE TABLE total (s INTEGER); INSERT INTO total VALUES (0);
              CREATE TRIGGER IF NOT EXISTS tr BEFORE INSERT ON t BEGIN
                SELECT CASE WHEN new.a < 0 THEN RAISE(ABORT, 'negative') END;
                UPDATE total SET s = s + new.a;
              END;
              INSERT INTO t VALUES (5); INSERT INTO t VALUES (7); SELECT s FROM total`);
    const rejected = outcome(() => sql.exec('INSERT INTO t VALUES (-1)').toArray());
    return { s: c.toArray(), rejected, after: sql.exec('SELECT s FROM total').one().s };
  },
  'temp-trigger': (sql) => {
    sql.exec('CREATE TABLE t (a INTEGER)');
    return outcome(() => sql.exec(`CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT CASE WHEN 1 THEN 2 END; END`).toArray());
  },
  'temp-table-and-view': (sql) => [
    outcome(() => sql.exec('CREATE TEMP TABLE x (a)').toArray()),
    outcome(() => sql.exec('CREATE TEMPORARY VIEW v AS SELECT 1').toArray()),
  ],
  'stray-end-still-refused': (sql) => {
    sql.exec('CREATE TABLE t (a INTEGER)');
    return outcome(() => sql.exec('SELECT 1; END').toArray());
  },
};

export class Triggers extends DurableObject {
  async run(name) {
    return cases[name](this.ctx.storage.sql);
  }
}

export default {
  async fetch(request, env) {
    const name = new URL(request.url).pathname.slice('/case/'.length);
    if (!(name in cases)) return new Response('no case ' + name, { status: 404 });
    try {
      return Response.json(await env.TRIGGERS.getByName(name).run(name));
    } catch (e) {
      return Response.json({ error: e?.name, message: e?.message }, { status: 500 });
    }
  },
};
