// Storage cases: each runs inside a Durable Object (Store.run) against this.ctx.storage and
// returns something JSON can carry. Every case gets its own object, hence its own database.
import { attempt, attemptShort, describe, keys } from './describe.js';

class MyError extends Error {
  constructor(m) { super(m); this.name = 'MyError'; }
}
class Shape {
  constructor() { this.w = 2; }
  get area() { return 4; }
}

async function roundTrip(s, values) {
  for (const [k, v] of Object.entries(values)) await s.put(k, v);
  const out = {};
  for (const k of Object.keys(values)) out[k] = describe(await s.get(k));
  return out;
}

export const storageCases = {
  'kv-values-primitives': (s) => roundTrip(s, {
    str: 'é😀\u0000x', empty: '', int: 42, float: 0.1, neg: -7.5, negzero: -0, nan: NaN, inf: -Infinity,
    big: 2n ** 70n, negbig: -5n, t: true, f: false, nul: null,
  }),
  'kv-values-objects': (s) => roundTrip(s, {
    date: new Date(1234), map: new Map([[1, 'a'], ['k', { n: 2 }]]), set: new Set([1, 'x', null]),
    nested: { a: [1, { b: new Date(5), c: [[]] }], d: {} }, re: /ab+c/gi, boxed: new Number(3), boxedStr: new String('s'),
    array: [1, 'two', null, undefined], deep: { l1: { l2: { l3: { l4: 'deep' } } } },
  }),
  'kv-values-binary': (s) => roundTrip(s, {
    ab: new Uint8Array([1, 2, 3]).buffer, u8: new Uint8Array([4, 5]), sub: new Uint8Array([1, 2, 3, 4]).subarray(1, 3),
    i16: new Int16Array([-1, 300]), f64: new Float64Array([1.5, -0]), big64: new BigInt64Array([-1n, 2n ** 40n]),
    dv: new DataView(new Uint8Array([9, 8, 7]).buffer, 1, 2), clamped: new Uint8ClampedArray([255, 0]),
  }),
  'kv-values-graph': async (s) => {
    const cyc = { n: 1 };
    cyc.self = cyc;
    await s.put('cyc', cyc);
    const shared = { x: 1 };
    await s.put('shared', [shared, shared, { inner: shared }]);
    await s.put('shape', new Shape());
    const c = await s.get('cyc');
    const sh = await s.get('shared');
    return { cycle: c.self === c, n: c.n, shared: sh[0] === sh[1] && sh[1] === sh[2].inner, shape: describe(await s.get('shape')) };
  },
  'kv-values-errors': (s) => roundTrip(s, {
    plain: new Error('plain'), range: new RangeError('r'), type: new TypeError('t'), custom: new MyError('mine'),
    withCause: new Error('outer', { cause: new TypeError('inner') }), causeValue: new Error('o', { cause: 5 }),
  }),
  'kv-uncloneable': async (s) => ({
    fn: await attempt(() => s.put('f', () => 1)),
    sym: await attempt(() => s.put('f', Symbol('q'))),
    nestedFn: await attempt(() => s.put('f', { a: [function named() {}] })),
    after: describe(await s.get('f')),
  }),
  'kv-get-many': async (s) => {
    await s.put({ b: 2, a: 1, aa: 3, 'é': 4 });
    const m = await s.get(['b', 'missing', 'é', 'a', 'aa', 'a']);
    return { type: Object.prototype.toString.call(m), entries: describe(m), none: describe(await s.get(['x', 'y'])), empty: describe(await s.get([])) };
  },
  'kv-put-forms': async (s) => ({
    entries: await attempt(async () => { await s.put({ one: 1, skipped: undefined, two: 'two' }); return keys(await s.list()); }),
    undef: await attempt(() => s.put('u', undefined)),
    missingValue: await attempt(() => s.put('u')),
    numberKey: await attempt(async () => { await s.put(5, 'five'); return await s.get('5'); }),
    overwrite: await attempt(async () => { await s.put('one', { v: 'new' }); return await s.get('one'); }),
    emptyKey: await attempt(async () => { await s.put('', 'empty'); return await s.get(''); }),
  }),
  'kv-delete': async (s) => {
    await s.put({ a: 1, b: 2, c: 3, d: 4 });
    return {
      one: await s.delete('a'), missing: await s.delete('zz'), many: await s.delete(['b', 'c', 'nope', 'b']),
      left: keys(await s.list()), emptyArray: await s.delete([]),
    };
  },
  'kv-get-errors': async (s) => ({
    noArgs: await attempt(() => s.get()),
    number: await attempt(() => s.get(5)),
    undef: await attempt(() => s.get(undefined)),
    missing: await attempt(() => s.get('missing')),
  }),
  'kv-list-order': async (s) => {
    await s.put({ b: 1, a: 1, Z: 1, 'a\u0000': 1, aa: 1, 'é': 1, 'ｚ': 1, '😀': 1, '10': 1, '9': 1, '': 1, ' ': 1 });
    return { all: keys(await s.list()), reversed: keys(await s.list({ reverse: true })) };
  },
  'kv-list-ranges': async (s) => {
    await s.put({ a: 1, ab: 2, abc: 3, abd: 4, b: 5, ba: 6, c: 7 });
    const l = async (o) => keys(await s.list(o));
    return {
      startEnd: await l({ start: 'ab', end: 'b' }), startAfter: await l({ startAfter: 'ab', end: 'ba' }),
      prefix: await l({ prefix: 'ab' }), prefixStart: await l({ prefix: 'ab', start: 'abd' }), prefixEnd: await l({ prefix: 'a', end: 'abc' }),
      reverseLimit: await l({ reverse: true, limit: 3 }), limit: await l({ limit: 2 }), reversePrefix: await l({ prefix: 'ab', reverse: true }),
      inverted: await l({ start: 'c', end: 'a' }), noMatch: await l({ prefix: 'zz' }), startAfterLast: await l({ startAfter: 'c' }),
      values: describe(await s.list({ prefix: 'ab', limit: 2 })),
    };
  },
  'kv-list-errors': async (s) => {
    await s.put({ a: 1, b: 2, c: 3 });
    const l = (o) => attempt(async () => keys(await s.list(o)));
    return {
      both: await l({ start: 'a', startAfter: 'a' }), zero: await l({ limit: 0 }), negative: await l({ limit: -1 }),
      half: await l({ limit: 0.5 }), fraction: await l({ limit: 1.9 }), text: await l({ limit: '2' }), nan: await l({ limit: 'x' }),
      nothing: await l(undefined), empty: await l({}),
    };
  },
  'kv-many-keys': async (s) => {
    const entries = {};
    for (let i = 0; i < 300; i++) entries['k' + String(i).padStart(3, '0')] = i;
    await s.put(entries);
    const some = await s.get(Object.keys(entries).slice(50, 250));
    const deleted = await s.delete(Object.keys(entries).slice(0, 150));
    const listed = await s.list();
    return { got: some.size, first: keys(some)[0], deleted, left: listed.size, firstLeft: keys(listed)[0] };
  },
  'kv-sync-api': async (s) => {
    const kv = s.kv;
    kv.put('b', { x: 1 });
    kv.put('a', new Date(3));
    kv.put('c', 'three');
    return {
      get: describe(kv.get('b')), missing: describe(kv.get('nope')), list: describe([...kv.list()]),
      prefixed: describe([...kv.list({ start: 'b' })]), del: kv.delete('b'), delMissing: kv.delete('b'),
      asyncSees: describe(await s.get('a')), undef: await attempt(() => kv.put('u', undefined)),
    };
  },
  // The first KV write (and the first alarm) of an object create platform tables; a rollback
  // must take those with it and leave the API working.
  'kv-first-write-rolled-back': async (s) => {
    const thrown = await attempt(() => s.transactionSync(() => { s.kv.put('k', 1); throw new Error('undo'); }));
    return { thrown, get: await attempt(() => s.get('k')), put: await attempt(async () => { await s.put('k', 2); return s.get('k'); }) };
  },
  'alarm-first-set-rolled-back': async (s) => {
    const thrown = await attempt(() => s.transaction(async (txn) => { await txn.setAlarm(Date.now() + 3_600_000); throw new Error('undo'); }));
    return { thrown, get: await attempt(() => s.getAlarm()) };
  },
  'kv-delete-all': async (s) => {
    s.sql.exec('CREATE TABLE t (a INTEGER)');
    s.sql.exec('CREATE INDEX t_a ON t (a)');
    s.sql.exec('CREATE VIEW v AS SELECT a FROM t');
    s.sql.exec('INSERT INTO t VALUES (1), (2)');
    await s.put({ k1: 1, k2: 2 });
    await s.setAlarm(Date.now() + 3_600_000);
    await s.deleteAll();
    const objects = s.sql.exec("SELECT type, name FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name").toArray();
    const alarm = await s.getAlarm();
    await s.deleteAlarm();
    return { keys: keys(await s.list()), objects, alarmKept: alarm !== null, reuse: s.sql.exec('CREATE TABLE t (b)').rowsRead >= 0 };
  },
};
