// Queues against workerd: producer cases answer JSON of what send()/sendBatch() returned or threw;
// consumer cases send to a queue of their own, whose queue() handler behaves by the queue's name and
// logs each batch it got in the LOG Durable Object; a wait-<queue> case then polls that log until the
// expected batches arrived (and a little longer, so a delivery too many would show) and answers it.
// What differs by nature between two hosts — message ids, times, backlog numbers — is replaced by its
// shape: an id by whether it is 32 hex digits, a delivery's time by whether it came after its delay.
import { DurableObject } from 'cloudflare:workers';

export class Log extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS log (n INTEGER PRIMARY KEY, queue TEXT, entry TEXT)');
  }
  add(queue, entry) { this.ctx.storage.sql.exec('INSERT INTO log (queue, entry) VALUES (?, ?)', queue, JSON.stringify(entry)); }
  list(queue) { return this.ctx.storage.sql.exec('SELECT entry FROM log WHERE queue = ? ORDER BY n', queue).toArray().map((r) => JSON.parse(r.entry)); }
}

const log = (env) => env.LOG.get(env.LOG.idFromName('log'));
const typeName = (v) => Object.prototype.toString.call(v).slice(8, -1);
function show(b) {
  if (b instanceof ArrayBuffer) return { ArrayBuffer: [...new Uint8Array(b)] };
  if (b instanceof Map) return { Map: [...b] };
  if (b instanceof Set) return { Set: [...b] };
  if (b instanceof Date) return { Date: b.getTime() };
  if (b instanceof RegExp) return { RegExp: String(b) };
  if (b instanceof Error) return { Error: b.name + ': ' + b.message };
  if (ArrayBuffer.isView(b)) return { [typeName(b)]: [...b] };
  if (b === undefined) return { undefined: true };
  if (typeof b === 'bigint') return { bigint: String(b) };
  if (b !== null && typeof b === 'object') return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, show(v)]));
  return b;
}
const shape = (v) => (v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : typeof v);
async function outcome(f) {
  try {
    const v = await f();
    return { ok: v === undefined ? 'undefined' : shape(v) };
  } catch (e) {
    return { threw: e.constructor.name, message: e.message };
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What each consumer queue's handler does with a batch.
const HANDLERS = {
  'q-retry': (batch) => { for (const m of batch.messages) { if (m.body === 'again') m.retry(); else m.ack(); } },
  'q-throw': () => { throw new Error('boom'); },
  'q-retryall': (batch) => { if (batch.messages[0].attempts === 1) batch.retryAll({ delaySeconds: 1 }); },
  'q-first-wins': (batch) => {
    for (const m of batch.messages) {
      if (m.body === 'ack-first') { m.ack(); m.retry(); } else { m.retry(); m.ack(); }
    }
  },
  'q-ackall-retry': (batch) => { batch.ackAll(); batch.messages[0].retry(); batch.retryAll(); },
  'q-retryall-ack': (batch) => { if (batch.messages[0].attempts === 1) { batch.retryAll(); batch.messages[0].ack(); batch.ackAll(); } },
  'q-msg-delay': (batch) => { for (const m of batch.messages) if (m.attempts === 1) m.retry({ delaySeconds: 1 }); },
  'q-ack-throw': (batch) => { batch.messages[0].ack(); throw new Error('after an ack'); },
  'q-waituntil': (batch, env, ctx) => { ctx.waitUntil(sleep(200).then(() => log(env).add('q-waituntil-late', { after: batch.messages.length }))); },
};

const SEND = {
  'q-basic': (Q) => Q.sendBatch([{ body: 1 }, { body: 'two' }, { body: { three: [3] } }]),
  'q-types': async (Q) => {
    await Q.send(new Date(0));
    await Q.send({ f: () => 1, u: undefined, n: 1, d: new Date(5) });
    await Q.send(new Map([[1, 2]]));
    await Q.send('txt', { contentType: 'text' });
    await Q.send(new Uint8Array([1, 2, 3]).subarray(1), { contentType: 'bytes' });
    await Q.send(new Map([[1, new Set(['s'])]]), { contentType: 'v8' });
    await Q.send({ d: new Date(7), r: /x/g, big: 12n, u8: new Uint8Array([4]) }, { contentType: 'v8' });
    await Q.send(new RangeError('bad'), { contentType: 'v8' });
    await Q.send(null);
    await Q.send('Json', { contentType: 'JSON' });
  },
  'q-retry': (Q) => Q.sendBatch([{ body: 'once' }, { body: 'again' }]),
  'q-throw': (Q) => Q.sendBatch([{ body: 'a' }, { body: 'b' }]),
  'q-retryall': (Q) => Q.sendBatch([{ body: 'x' }, { body: 'y' }]),
  'q-first-wins': (Q) => Q.sendBatch([{ body: 'ack-first' }, { body: 'retry-first' }]),
  'q-ackall-retry': (Q) => Q.sendBatch([{ body: 'p' }, { body: 'q' }]),
  'q-retryall-ack': (Q) => Q.sendBatch([{ body: 'r' }]),
  'q-msg-delay': (Q) => Q.send('later'),
  'q-delay': async (Q) => { await Q.send('late', { delaySeconds: 1 }); await Q.sendBatch([{ body: 'late-batch' }], { delaySeconds: 1 }); },
  'q-batches': (Q) => Q.sendBatch([1, 2, 3, 4, 5].map((body) => ({ body }))),
  'q-ack-throw': (Q) => Q.sendBatch([{ body: 'kept' }, { body: 'other' }]),
  'q-waituntil': (Q) => Q.send('w'),
  // the producer binding's delivery_delay (1 s) applies to a send without delaySeconds
  'q-pdelay': (Q) => Q.send('pd'),
  // a full batch of the largest size, due at once
  'q-full': (Q) => Q.sendBatch(Array.from({ length: 100 }, (_, i) => ({ body: i }))),
};

// Queues whose deliveries come after a delay (of the send or of a retry): whether each did is compared.
const DELAYED = ['q-delay', 'q-retryall', 'q-msg-delay', 'q-pdelay'];
const big = (n) => 'x'.repeat(n);
const PRODUCER = {
  'send-result': (Q) => Q.send('ok'),
  'send-null': (Q) => Q.send(null),
  'send-undefined': (Q) => Q.send(undefined),
  'send-no-argument': (Q) => Q.send(),
  'send-content-type-unknown': (Q) => Q.send('a', { contentType: 'xml' }),
  'send-content-type-upper': (Q) => Q.send('a', { contentType: 'TEXT' }),
  'send-text-number': (Q) => Q.send(5, { contentType: 'text' }),
  'send-text-null': (Q) => Q.send(null, { contentType: 'text' }),
  'send-bytes-string': (Q) => Q.send('s', { contentType: 'bytes' }),
  'send-bytes-arraybuffer': (Q) => Q.send(new ArrayBuffer(2), { contentType: 'bytes' }),
  'send-bytes-dataview': (Q) => Q.send(new DataView(new ArrayBuffer(2)), { contentType: 'bytes' }),
  'send-v8-function': (Q) => Q.send(() => 1, { contentType: 'v8' }),
  'send-v8-symbol': (Q) => Q.send(Symbol('s'), { contentType: 'v8' }),
  'send-json-bigint': (Q) => Q.send(1n, { contentType: 'json' }),
  'send-json-function': (Q) => Q.send(() => 1, { contentType: 'json' }),
  'send-json-object-with-function': (Q) => Q.send({ f: () => 1 }),
  'send-json-cycle': (Q) => { const o = {}; o.o = o; return Q.send(o); },
  'send-too-large-text': (Q) => Q.send(big(128001), { contentType: 'text' }),
  'send-largest-text': (Q) => Q.send(big(128000), { contentType: 'text' }),
  'send-too-large-json': (Q) => Q.send(big(127999)),
  'send-too-large-bytes': (Q) => Q.send(new Uint8Array(128001), { contentType: 'bytes' }),
  'send-delay-string': (Q) => Q.send('a', { delaySeconds: '2' }),
  'send-delay-fraction': (Q) => Q.send('a', { delaySeconds: 1.5 }),
  'send-delay-max': (Q) => Q.send('a', { delaySeconds: 86400 }),
  'send-delay-too-long': (Q) => Q.send('a', { delaySeconds: 86401 }),
  'send-delay-negative': (Q) => Q.send('a', { delaySeconds: -1 }),
  'batch-result': (Q) => Q.sendBatch([{ body: 1 }, { body: 'x', contentType: 'text' }]),
  'batch-empty': (Q) => Q.sendBatch([]),
  'batch-not-iterable': (Q) => Q.sendBatch(5),
  'batch-null': (Q) => Q.sendBatch(null),
  'batch-no-argument': (Q) => Q.sendBatch(),
  'batch-set': (Q) => Q.sendBatch(new Set([{ body: 1 }])),
  'batch-body-undefined': (Q) => Q.sendBatch([{ body: undefined }]),
  'batch-no-body': (Q) => Q.sendBatch([{}]),
  'batch-content-type-unknown': (Q) => Q.sendBatch([{ body: 1, contentType: 'yaml' }]),
  'batch-text-number': (Q) => Q.sendBatch([{ body: 1, contentType: 'text' }]),
  'batch-100': (Q) => Q.sendBatch(Array.from({ length: 100 }, (_, i) => ({ body: i }))),
  'batch-101': (Q) => Q.sendBatch(Array.from({ length: 101 }, (_, i) => ({ body: i }))),
  'batch-largest-message': (Q) => Q.sendBatch([{ body: 1 }, { body: big(128001), contentType: 'text' }]),
  'batch-bytes-under-limit': (Q) => Q.sendBatch([{ body: big(100000), contentType: 'text' }, { body: big(100000), contentType: 'text' }]),
  'batch-bytes-over-both-limits': (Q) => Q.sendBatch([0, 1, 2].map(() => ({ body: big(100000), contentType: 'text' }))),
  'batch-bytes-between-limits': (Q) => Q.sendBatch([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(() => ({ body: big(20000), contentType: 'text' }))),
  'batch-delay-too-long': (Q) => Q.sendBatch([{ body: 1 }], { delaySeconds: 86401 }),
  'batch-message-delay-too-long': (Q) => Q.sendBatch([{ body: 1, delaySeconds: 86401 }]),
  // a queue nothing was sent to (the sink's backlog depends on how fast each side delivers)
  'metrics-shape': (Q, env) => env.Q_EMPTY.metrics(),
  'queue-shape': (Q) => ({ keys: Object.keys(Q), proto: Object.getOwnPropertyNames(Object.getPrototypeOf(Q)).sort(), str: String(Q) }),
};

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const name = url.pathname.slice('/case/'.length);
    if (PRODUCER[name]) return Response.json(await outcome(() => PRODUCER[name](env.SINK, env)));
    if (name.startsWith('send-q-')) {
      const queue = name.slice('send-'.length);
      return Response.json(await outcome(async () => { await SEND[queue](env[queue.replaceAll('-', '_').toUpperCase()]); }));
    }
    if (name.startsWith('wait-')) {
      // wait-<queue>?batches=N: the log once N batches arrived, plus 2.5 s in which no other may come
      const queue = name.slice('wait-'.length);
      const want = Number(url.searchParams.get('batches'));
      const started = Date.now();
      let got = await log(env).list(queue);
      while (got.length < want && Date.now() - started < 20000) {
        await sleep(100);
        got = await log(env).list(queue);
      }
      await sleep(2500);
      return Response.json(await log(env).list(queue));
    }
    return new Response('no case ' + name, { status: 404 });
  },

  async queue(batch, env, ctx) {
    const sentAt = batch.messages.map((m) => m.timestamp.getTime());
    await log(env).add(batch.queue, {
      size: batch.messages.length,
      metadata: shape(batch.metadata),
      shape: { batch: Object.keys(batch), str: String(batch), message: Object.keys(batch.messages[0]), messageStr: String(batch.messages[0]),
        frozen: Object.isFrozen(batch.messages), timestamp: typeName(batch.messages[0].timestamp) },
      messages: batch.messages.map((m, i) => ({
        body: show(m.body), attempts: m.attempts, id: /^[0-9a-f]{32}$/.test(m.id) ? 'hex32' : m.id,
        ...(DELAYED.includes(batch.queue) ? { afterItsDelay: Date.now() - sentAt[i] >= 900 } : {}),
      })),
    });
    const h = HANDLERS[batch.queue];
    if (h) return h(batch, env, ctx);
  },
};
