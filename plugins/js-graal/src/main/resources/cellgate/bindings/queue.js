// A queue producer (env.<queues.producers binding>): Cloudflare's WorkerQueue. Each message is
// checked and serialized here, as workerd's client does (content types, sizes, delays, their error
// texts), then send() or sendBatch() is ONE RPC call to the queue's cell (bindings/queues.js), which
// stores the messages in its SQLite: the call resolves only once they are in the bucket (the output
// gate). docs/queues.md has the semantics; miniflare 4.20260730.0 is the reference (QueuesConformanceTest).
(function (host, internal) {
  'use strict';
  const CREATE = Symbol('create');
  const kTarget = Symbol('WorkerQueue.target');
  const MAX_MESSAGE_BYTES = 128000;
  const MAX_BATCH_MESSAGES = 100;
  const MAX_BATCH_BYTES = 256000; // Cloudflare's documented limit (miniflare allows 288,000: docs/queues.md)
  const MAX_DELAY_S = 86400;
  const TYPES = ['text', 'bytes', 'json', 'v8'];
  const encoder = new TextEncoder();

  function contentTypeOf(type) {
    if (type === undefined) return 'json';
    const lower = String(type).toLowerCase();
    if (!TYPES.includes(lower)) throw new TypeError('Unsupported queue message content type: ' + type);
    return lower;
  }

  // The body's bytes as the consumer will read them back (queues.js decodes them by the same type).
  function serialize(body, type) {
    switch (type) {
      case 'text':
        if (typeof body !== 'string') throw new TypeError(`Content Type "text" requires a value of type string, but received: ${typeof body}`);
        return encoder.encode(body);
      case 'bytes':
        if (!ArrayBuffer.isView(body)) throw new TypeError(`Content Type "bytes" requires a value of type ArrayBufferView, but received: ${typeof body}`);
        return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
      case 'json': {
        const text = JSON.stringify(body);
        // workerd sends such a body and its broker fails the call; say why instead (docs/queues.md)
        if (text === undefined) throw new TypeError(`Content Type "json" requires a value JSON can represent, but received: ${typeof body}`);
        return encoder.encode(text);
      }
      default:
        // v8: the structured clone this runtime has (the README's "Structured-clone format"); what it cannot
        // clone (functions, symbols, host objects) is refused with its DataCloneError, as workerd refuses it.
        return internal.serialize(body);
    }
  }

  // delaySeconds as workerd reads it (a number, truncated to an integer), within Cloudflare's 24 hours.
  function delayOf(value, fallback, what) {
    if (value === undefined) return fallback;
    const n = Math.trunc(Number(value));
    if (!(n >= 0 && n <= MAX_DELAY_S)) {
      throw new RangeError(`${what} failed: delaySeconds must be a whole number of seconds from 0 to ${MAX_DELAY_S} (got ${String(value)})`);
    }
    return n;
  }

  function message(body, contentType, delayS) {
    if (body === undefined) throw new TypeError('Message body cannot be undefined');
    const type = contentTypeOf(contentType);
    return { bytes: serialize(body, type), contentType: type, delayS };
  }

  class WorkerQueue {
    [kTarget];
    constructor(key, target) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kTarget] = target;
    }

    async send(body, options) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'send' on 'WorkerQueue': parameter 1 is not of type 'JsValue'.");
      const t = this[kTarget];
      const opts = options === undefined || options === null ? {} : options;
      const delayS = delayOf(opts.delaySeconds, t.deliveryDelay, 'Queue send');
      const m = message(body, opts.contentType, delayS);
      if (m.bytes.byteLength > MAX_MESSAGE_BYTES) {
        throw new Error(`Queue send failed: message length of ${m.bytes.byteLength} bytes exceeds limit of ${MAX_MESSAGE_BYTES}`);
      }
      return t.stub.enqueue(t.queue, [m]);
    }

    async sendBatch(messages, options) {
      const t = this[kTarget];
      if (messages === null || messages === undefined || typeof messages[Symbol.iterator] !== 'function' || typeof messages === 'string') {
        throw new TypeError("Failed to execute 'sendBatch' on 'WorkerQueue': parameter 1 is not of type 'Sequence'.");
      }
      const list = Array.from(messages);
      if (list.length === 0) throw new TypeError('sendBatch() requires at least one message');
      const opts = options === undefined || options === null ? {} : options;
      const batchDelayS = delayOf(opts.delaySeconds, t.deliveryDelay, 'Queue sendBatch');
      const out = list.map((r) => {
        const req = r === null || r === undefined ? {} : r;
        return message(req.body, req.contentType, delayOf(req.delaySeconds, batchDelayS, 'Queue sendBatch'));
      });
      if (out.length > MAX_BATCH_MESSAGES) {
        throw new Error(`Queue sendBatch failed: batch message count of ${out.length} exceeds limit of ${MAX_BATCH_MESSAGES}`);
      }
      const largest = Math.max(...out.map((m) => m.bytes.byteLength));
      if (largest > MAX_MESSAGE_BYTES) {
        throw new Error(`Queue sendBatch failed: message in batch has length ${largest} bytes which exceeds single message size limit of ${MAX_MESSAGE_BYTES}`);
      }
      const total = out.reduce((sum, m) => sum + m.bytes.byteLength, 0);
      if (total > MAX_BATCH_BYTES) {
        throw new Error(`Queue sendBatch failed: batch size of ${total} bytes exceeds limit of ${MAX_BATCH_BYTES}`);
      }
      return t.stub.enqueue(t.queue, out);
    }

    /** The queue's backlog: {backlogCount, backlogBytes, oldestMessageTimestamp (a Date, when there is a backlog)}. */
    async metrics() {
      const t = this[kTarget];
      return t.stub.metrics();
    }

    get [Symbol.toStringTag]() { return 'WorkerQueue'; }
  }

  return (target, settings, name) => {
    const colon = target.indexOf(':');
    const stub = internal.newStub(internal.newId(target.slice(0, colon), target.slice(colon + 1), undefined));
    const deliveryDelay = settings.delivery_delay === undefined || settings.delivery_delay === null ? 0 : settings.delivery_delay;
    return new WorkerQueue(CREATE, { stub, queue: settings.queue_name, deliveryDelay });
  };
});
