// Queues, the cell side (the hidden binding $cellgate$queues, runtime-core QueuesProvider): each queue
// is a cell of the built-in class below (id from the queue's name, runtime-core QueueCells). It keeps
// the messages in its own SQLite, so a send() answered is in the bucket (the output gate), and it
// delivers batches to the Worker's queue(batch, env, ctx) handler from its alarm, one batch at a time:
// the cell has one owner fleet-wide, and a takeover after a crash finds the messages and the alarm in
// the bucket. What is due and what becomes of each delivered message is runtime-core's pure
// logic/QueueDelivery (through the host object). docs/queues.md has the semantics.
(function (host, internal) {
  'use strict';
  const CELL_CLASS = '$cellgate$Queue';
  const CREATE = Symbol('create');
  const kState = Symbol('QueueMessage.state');
  const kIndex = Symbol('QueueMessage.index');
  const MAX_DELAY_S = 86400;
  const decoder = new TextDecoder();
  let queues = null; // the host object (QueuesHost), set when the binding opens in this context
  const consumers = new Map();

  function consumerOf(name) {
    if (!consumers.has(name)) {
      const json = queues.consumer(name);
      consumers.set(name, json === null ? null : JSON.parse(json));
    }
    return consumers.get(name);
  }

  const newMessageId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

  function decode(type, buffer) {
    switch (type) {
      case 'text': return decoder.decode(buffer);
      case 'bytes': return buffer;
      case 'json': return JSON.parse(decoder.decode(buffer));
      default: return internal.deserialize(new Uint8Array(buffer));
    }
  }

  // ---- what the handler sees: workerd records ack/retry calls the same way (the first call wins) ----

  function retryDelayOf(options) {
    if (options === undefined || options === null || options.delaySeconds === undefined) return -1;
    const n = Math.trunc(Number(options.delaySeconds));
    if (!(n >= 0 && n <= MAX_DELAY_S)) {
      throw new RangeError(`delaySeconds must be a whole number of seconds from 0 to ${MAX_DELAY_S} (got ${String(options.delaySeconds)})`);
    }
    return n;
  }

  class Message {
    constructor(key, fields, state, index) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      for (const k of ['attempts', 'body', 'timestamp', 'id']) Object.defineProperty(this, k, { value: fields[k], enumerable: true });
      this[kState] = state;
      this[kIndex] = index;
    }
    ack() {
      const s = this[kState];
      const own = s.own[this[kIndex]];
      if (s.done || s.batch === 'ACK' || own.call === 'ACK') return;
      if (s.batch === 'RETRY' || own.call === 'RETRY') {
        console.warn(`Received a call to ack() on message ${this.id} after ${s.batch === 'RETRY' ? 'retryAll()' : 'retry()'} was already called. `
          + `Calling ack() on a message after calling ${s.batch === 'RETRY' ? 'retryAll()' : 'retry()'} has no effect.`);
        return;
      }
      own.call = 'ACK';
    }
    retry(options) {
      const delay = retryDelayOf(options);
      const s = this[kState];
      const own = s.own[this[kIndex]];
      if (s.done || s.batch === 'RETRY' || own.call === 'RETRY') return;
      if (s.batch === 'ACK' || own.call === 'ACK') {
        console.warn(`Received a call to retry() on message ${this.id} after ${s.batch === 'ACK' ? 'ackAll()' : 'ack()'} was already called. `
          + `Calling retry() on a message after calling ${s.batch === 'ACK' ? 'ackAll()' : 'ack()'} has no effect.`);
        return;
      }
      own.call = 'RETRY';
      own.delay = delay;
    }
    get [Symbol.toStringTag]() { return 'QueueMessage'; }
  }

  class MessageBatch {
    constructor(key, queue, messages, metadata, state) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      Object.defineProperty(this, 'metadata', { value: metadata, enumerable: true });
      Object.defineProperty(this, 'queue', { value: queue, enumerable: true });
      Object.defineProperty(this, 'messages', { value: messages, enumerable: true });
      this[kState] = state;
    }
    retryAll(options) {
      const delay = retryDelayOf(options);
      const s = this[kState];
      if (s.done) return;
      if (s.batch === 'ACK') {
        console.warn('Received a call to retryAll() after ackAll() was already called. Calling retryAll() after calling ackAll() has no effect.');
        return;
      }
      s.batch = 'RETRY';
      s.batchDelay = delay;
    }
    ackAll() {
      const s = this[kState];
      if (s.done) return;
      if (s.batch === 'RETRY') {
        console.warn('Received a call to ackAll() after retryAll() was already called. Calling ackAll() after calling retryAll() has no effect.');
        return;
      }
      s.batch = 'ACK';
    }
    get [Symbol.toStringTag]() { return 'QueueController'; }
  }

  // The handler's run: it ends when its promise has settled AND its ctx.waitUntil promises have.
  function runHandler(batch) {
    return new Promise((resolve, reject) => {
      let pending = 0;
      let handlerDone = false;
      const finish = () => { if (handlerDone && pending === 0) resolve(); };
      const tracked = { waitUntilBegin() { pending++; }, waitUntilEnd() { pending--; finish(); } };
      let result;
      try {
        result = internal.callDefaultHandler('queue', batch, tracked);
      } catch (e) {
        reject(e);
        return;
      }
      Promise.resolve(result).then(() => { handlerDone = true; finish(); }, reject);
    });
  }

  // ---- the queue's cell ----

  const SCHEMA = 'CREATE TABLE IF NOT EXISTS queue_messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, sent_ms INTEGER NOT NULL, '
    + 'ready_ms INTEGER NOT NULL, attempts INTEGER NOT NULL, content_type TEXT NOT NULL, body BLOB NOT NULL, size INTEGER NOT NULL)';
  const INDEX = 'CREATE INDEX IF NOT EXISTS queue_messages_ready ON queue_messages (ready_ms, seq)';
  const NAME_KEY = 'queue.name';
  // A queue holding messages that the running deployment does not consume looks again this often, so a
  // deployment that adds its consumer delivers the backlog without waiting for the next send.
  const NO_CONSUMER_RECHECK_MS = 60_000;
  const buffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

  class QueueCell {
    constructor(ctx) {
      this.ctx = ctx;
      this.sql = ctx.storage.sql;
      this.delivering = false;
      this.sql.exec(SCHEMA);
      this.sql.exec(INDEX);
      // Every activation runs the current deployment's code: a backlog left while no deployment
      // consumed this queue is scheduled here as soon as one does (the recheck alarm wakes it).
      this.schedule(Date.now());
    }

    /** The ready messages' count, bytes and oldest send time (what the broker calls the backlog). */
    backlog(now) {
      const b = this.sql.exec('SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes, min(sent_ms) AS oldest FROM queue_messages WHERE ready_ms <= ?', now).one();
      return { backlogCount: b.n, backlogBytes: b.bytes, oldestMessageTimestamp: b.oldest === null ? 0 : b.oldest };
    }

    /**
     * A producer's send or sendBatch, already checked and serialized (queue.js), or the messages a
     * queue dead-letters here (they keep their id and timestamp). One turn: stored, and the answer
     * leaves only once the turn is in the bucket.
     */
    enqueue(queue, messages) {
      const kv = this.ctx.storage.kv;
      if (kv.get(NAME_KEY) === undefined) kv.put(NAME_KEY, queue);
      const now = Date.now();
      const before = this.backlog(now);
      for (const m of messages) {
        this.sql.exec('INSERT INTO queue_messages (id, sent_ms, ready_ms, attempts, content_type, body, size) VALUES (?, ?, ?, 0, ?, ?, ?)',
          m.id === undefined ? newMessageId() : m.id, m.sentMs === undefined ? now : m.sentMs, now + m.delayS * 1000, m.contentType,
          buffer(m.bytes), m.bytes.byteLength);
      }
      if (!this.delivering) this.schedule(now);
      return { metadata: { metrics: { backlogCount: before.backlogCount, backlogBytes: before.backlogBytes } } };
    }

    /**
     * The backlog a batch's metadata reports: the ready messages after the batch's `count` (the batch is
     * the first of them in delivery order); the oldest one's time only when there is one.
     */
    backlogAfter(count, now) {
      const b = this.sql.exec('SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes, min(sent_ms) AS oldest FROM (SELECT size, sent_ms '
        + 'FROM queue_messages WHERE ready_ms <= ? ORDER BY ready_ms, seq LIMIT -1 OFFSET ?)', now, count).one();
      const metrics = { backlogCount: b.n, backlogBytes: b.bytes };
      if (b.oldest !== null) metrics.oldestMessageTimestamp = new Date(b.oldest);
      return metrics;
    }

    /** metrics(): as a batch's metadata reports it, the oldest message's time (a Date) only when there is one (as workerd answers). */
    metrics() {
      const b = this.backlog(Date.now());
      const metrics = { backlogCount: b.backlogCount, backlogBytes: b.backlogBytes };
      if (b.backlogCount > 0) metrics.oldestMessageTimestamp = new Date(b.oldestMessageTimestamp);
      return metrics;
    }

    /**
     * Sets the alarm for the next batch (logic/QueueDelivery.next). A queue without a consumer in this
     * deployment keeps its messages and looks again in NO_CONSUMER_RECHECK_MS while it has any.
     */
    schedule(now) {
      const name = this.ctx.storage.kv.get(NAME_KEY);
      if (name === undefined) return;
      if (consumerOf(name) === null) {
        if (this.sql.exec('SELECT count(*) AS n FROM queue_messages').one().n > 0) this.ctx.storage.setAlarm(now + NO_CONSUMER_RECHECK_MS);
        return;
      }
      const next = this.next(name, now);
      if (next[0] > 0) this.ctx.storage.setAlarm(now);
      else if (next[1] >= 0) this.ctx.storage.setAlarm(next[1]);
    }

    next(name, now) {
      const r = this.sql.exec('SELECT count(*) AS n, min(ready_ms) AS oldest FROM queue_messages WHERE ready_ms <= ?', now).one();
      const d = this.sql.exec('SELECT min(ready_ms) AS next FROM queue_messages WHERE ready_ms > ?', now).one();
      return JSON.parse(queues.next(name, r.n, r.oldest === null ? 0 : r.oldest, d.next === null ? -1 : d.next, now));
    }

    async alarm() {
      const name = this.ctx.storage.kv.get(NAME_KEY);
      if (name === undefined) return;
      if (consumerOf(name) === null) {
        this.schedule(Date.now());
        return;
      }
      const now = Date.now();
      const [count] = this.next(name, now);
      if (count > 0) {
        this.delivering = true;
        try {
          await this.deliver(name, consumerOf(name), count, now);
        } finally {
          this.delivering = false;
        }
      }
      this.schedule(Date.now());
    }

    /** One batch: the oldest `count` ready messages to the handler, then each message's fate. */
    async deliver(name, consumer, count, now) {
      const sql = this.sql;
      const rows = sql.exec('SELECT seq, id, sent_ms, attempts, content_type, body FROM queue_messages WHERE ready_ms <= ? '
        + 'ORDER BY ready_ms, seq LIMIT ?', now, count).toArray();
      const metadata = { metrics: this.backlogAfter(rows.length, now) };
      // The delivery counts before the handler runs: a crash in the handler still counted the attempt.
      for (const r of rows) sql.exec('UPDATE queue_messages SET attempts = attempts + 1 WHERE seq = ?', r.seq);
      if (queues.broken() === 'delete-before-handler') {
        for (const r of rows) sql.exec('DELETE FROM queue_messages WHERE seq = ?', r.seq); // the broken variant QueuesFleetIT catches
      }
      const state = { done: false, batch: 'NONE', batchDelay: -1, own: rows.map(() => ({ call: 'NONE', delay: -1 })) };
      const messages = rows.map((r, i) => new Message(CREATE, {
        attempts: r.attempts + 1, body: decode(r.content_type, r.body), timestamp: new Date(r.sent_ms), id: r.id,
      }, state, i));
      const batch = new MessageBatch(CREATE, name, messages, metadata, state);
      let threw = false;
      try {
        await runHandler(batch);
      } catch (e) {
        threw = true;
        console.error(`queue ${name}: the queue() handler failed; ${rows.length} message(s) not acknowledged will be retried:`, e);
      }
      state.done = true;
      const after = Date.now();
      const dead = [];
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const own = state.own[i];
        const fate = queues.fate(name, r.attempts + 1, own.call, own.delay, state.batch, state.batchDelay, threw, after);
        if (fate.startsWith('REDELIVER:')) {
          sql.exec('UPDATE queue_messages SET ready_ms = ? WHERE seq = ?', Number(fate.slice('REDELIVER:'.length)), r.seq);
        } else if (fate === 'DEAD_LETTER') {
          dead.push(r);
        } else {
          if (fate === 'DROP') console.warn(`Dropped message "${r.id}" on queue "${name}" after ${consumer.maxRetries + 1} failed attempt(s)!`);
          sql.exec('DELETE FROM queue_messages WHERE seq = ?', r.seq);
        }
      }
      if (dead.length > 0) {
        // In the dead letter queue's cell (durable there) before they leave this one: at least once.
        const scope = queues.scopeOf(consumer.deadLetterQueue);
        const stub = internal.newStub(internal.newId(CELL_CLASS, scope.slice(scope.indexOf(':') + 1), undefined));
        await stub.enqueue(consumer.deadLetterQueue, dead.map((r) => ({
          bytes: new Uint8Array(r.body), contentType: r.content_type, delayS: 0, id: r.id, sentMs: r.sent_ms,
        })));
        for (const r of dead) sql.exec('DELETE FROM queue_messages WHERE seq = ?', r.seq);
      }
    }
  }
  internal.builtinClasses[CELL_CLASS] = QueueCell;

  return (target) => {
    queues = target;
    return target;
  };
});
