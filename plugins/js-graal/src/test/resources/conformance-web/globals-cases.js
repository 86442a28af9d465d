// navigator, performance, scheduler, self, MessageChannel, EventSource and the still-missing
// globals: cases of the conformance-web fixture.
import { errOf, tick, sleep, enc, tag } from './util.js';

export const globalsCases = {
  'navigator': () => [navigator.userAgent, navigator.hardwareConcurrency, navigator.language, navigator.languages, typeof navigator.sendBeacon,
    tag(navigator), navigator.constructor.name, Object.keys(navigator), navigator.platform, errOf(() => new Navigator()), typeof Navigator,
    Object.getOwnPropertyNames(Navigator.prototype).sort(), errOf(() => navigator.sendBeacon())],
  'navigator-send-beacon': async (req) => [navigator.sendBeacon(req.headers.get('x-origin') + '/echo', 'beacon data'), navigator.sendBeacon(req.headers.get('x-origin') + '/text')],
  'performance': async () => {
    const a = performance.now();
    await sleep(20);
    const b = performance.now();
    return [performance.timeOrigin, typeof a, b - a >= 19, Math.abs(performance.now() - Date.now()) < 1000, tag(performance), performance.constructor.name,
      Object.getOwnPropertyNames(performance), ['mark', 'measure', 'getEntries', 'toJSON', 'now', 'timeOrigin'].map((k) => k + ':' + typeof performance[k]),
      errOf(() => new performance.constructor()), typeof globalThis.Performance];
  },
  'scheduler-wait': async () => {
    const t = Date.now();
    const r = await scheduler.wait(30);
    const ac = new AbortController();
    const p = scheduler.wait(1000, { signal: ac.signal });
    ac.abort(new RangeError('stop'));
    const pre = new AbortController(); pre.abort();
    return [r, Date.now() - t >= 29, tag(scheduler), scheduler.constructor.name, typeof scheduler.yield, await errOf(() => p),
      await errOf(() => scheduler.wait(10, { signal: pre.signal })), await errOf(() => scheduler.wait()), await errOf(() => scheduler.wait(-5)),
      await errOf(() => scheduler.wait('x')), await errOf(() => scheduler.wait(1, { signal: 5 }))];
  },
  'self': () => [self === globalThis, typeof self.fetch, typeof self.Response, self.self === self, typeof BroadcastChannel],
  'message-channel': async () => {
    const log = [];
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = (e) => log.push(['msg', e.constructor.name, JSON.stringify(e.data), e.ports.length, e.target === port2, e.origin, e.lastEventId]);
    port1.postMessage({ a: [1, 2] });
    port1.postMessage('two');
    log.push('sync');
    await null;
    log.push('micro');
    await tick();
    const order = [];
    const c2 = new MessageChannel();
    c2.port2.onmessage = (e) => order.push('m' + e.data);
    c2.port1.postMessage(1);
    Promise.resolve().then(() => order.push('p'));
    setTimeout(() => order.push('t'), 0);
    await tick(); await tick();
    const started = [];
    const c3 = new MessageChannel();
    c3.port2.addEventListener('message', (e) => started.push('l' + e.data));
    c3.port1.postMessage(1);
    await tick(); started.push('before start');
    c3.port2.start(); await tick();
    c3.port1.postMessage(2); await tick();
    const back = [];
    const c4 = new MessageChannel();
    c4.port1.onmessage = (e) => back.push('1:' + e.data);
    c4.port2.postMessage('back'); await tick();
    return { log, order, started, back };
  },
  'message-channel-lifecycle': async () => {
    const closed = [];
    const c = new MessageChannel();
    c.port2.onmessage = (e) => closed.push(e.data);
    c.port1.close();
    c.port1.postMessage('after close');
    await tick();
    c.port2.postMessage('to a closed port');
    await tick();
    const queued = [];
    const d = new MessageChannel();
    d.port2.onmessage = (e) => queued.push(e.data);
    d.port1.postMessage('sent before close');
    d.port2.close();
    await tick();
    const handlers = [];
    const e = new MessageChannel();
    e.port2.onmessage = () => handlers.push('a');
    e.port2.onmessage = () => handlers.push('b');
    e.port1.postMessage(1); await tick();
    e.port2.onmessage = null;
    e.port1.postMessage(2); await tick();
    return { closed, queued, handlers, onmessage: e.port2.onmessage };
  },
  'message-channel-clone': async () => {
    const { port1, port2 } = new MessageChannel();
    let got;
    port2.onmessage = (e) => { got = e.data; };
    const o = { d: new Date(0), r: /x/g, u: new Uint8Array([1]), s: new Set([1]), m: new Map([[1, 2]]) };
    o.self = o;
    port1.postMessage(o);
    await tick();
    const cloned = [got !== o, got.self === got, got.d instanceof Date, got.r.source, got.u[0], got.s.has(1), got.m.get(1)];
    let empty = 'unset';
    port2.onmessage = (e) => { empty = e.data; };
    port1.postMessage();
    await tick();
    const c = new MessageChannel();
    const b = new ArrayBuffer(4);
    return { cloned, noArg: empty === undefined, fn: errOf(() => c.port1.postMessage(() => 1)), symbol: errOf(() => c.port1.postMessage(Symbol('x'))),
      transfer: errOf(() => c.port1.postMessage(b, [b])), shape: [tag(c), tag(c.port1), c.port1 instanceof EventTarget, Object.getOwnPropertyNames(MessagePort.prototype).sort(),
        Object.keys(c), c.port1.onmessage, 'onmessageerror' in c.port1], illegal: errOf(() => new MessagePort()) };
  },
  'event-source-from': async () => {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(enc.encode('data: hello\n\n'));
        c.enqueue(enc.encode('event: custom\ndata: a\ndata: b\nid: 7\n\n'));
        c.enqueue(enc.encode(': comment\nretry: 100\ndata: x'));
        c.enqueue(enc.encode('y\r\n\r\ndata:nospace\r\n\r\n'));
        c.enqueue(enc.encode('id\ndata\n\ndata: last\n\n'));
        c.close();
      },
    });
    const es = EventSource.from(body);
    const log = [];
    es.onopen = (e) => log.push(['open', e.constructor.name]);
    es.onmessage = (e) => log.push(['message', e.constructor.name, e.data, e.lastEventId, e.origin]);
    es.addEventListener('custom', (e) => log.push(['custom', e.data, e.lastEventId]));
    es.onerror = (e) => log.push(['error', e.constructor.name, es.readyState]);
    log.push(['state', es.readyState, es.url, es.withCredentials]);
    await sleep(50);
    log.push(['state', es.readyState]);
    const bom = EventSource.from(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('data: bom\n\n')])); c.close(); } }));
    const b = [];
    bom.onmessage = (e) => b.push(e.data);
    const closing = EventSource.from(new ReadableStream({ start(c) { c.enqueue(enc.encode('data: a\n\ndata: b\n\n')); } }));
    const cl = [];
    closing.onmessage = (e) => { cl.push(e.data); closing.close(); };
    await sleep(20);
    cl.push(closing.readyState);
    return { log, bom: b, close: cl };
  },
  'event-source-shape': () => [Object.getOwnPropertyNames(EventSource.prototype).sort(), Object.getOwnPropertyNames(EventSource).sort(),
    EventSource.CONNECTING, EventSource.OPEN, EventSource.CLOSED, errOf(() => new EventSource()), errOf(() => new EventSource('not a url')),
    errOf(() => EventSource.from('x')), tag(EventSource.from(new ReadableStream()))],
  'event-source-fetch': async (req) => {
    const es = new EventSource(req.headers.get('x-origin') + '/events');
    const log = [['state', es.readyState, es.url === req.headers.get('x-origin') + '/events']];
    const done = new Promise((resolve) => {
      es.onopen = (e) => log.push(['open', e.constructor.name, es.readyState]);
      es.addEventListener('greet', (e) => log.push(['greet', e.data, e.lastEventId, e.origin === req.headers.get('x-origin')]));
      es.onmessage = (e) => { log.push(['message', e.data, e.lastEventId]); if (e.data.startsWith('again')) { es.close(); resolve(); } };
      es.onerror = (e) => log.push(['error', e.constructor.name, es.readyState, String(e.error)]);
    });
    await Promise.race([done, sleep(5000)]);
    log.push(['closed', es.readyState]);
    return log;
  },
  'event-source-fetch-failures': async (req) => {
    const o = req.headers.get('x-origin');
    const watch = async (url) => {
      const es = new EventSource(url);
      const log = [es.readyState];
      await new Promise((resolve) => {
        es.onopen = () => log.push('open');
        es.onerror = (e) => { log.push(['error', es.readyState, String(e.error)]); resolve(); };
        setTimeout(resolve, 3000);
      });
      log.push(es.readyState);
      es.close();
      return log;
    };
    return [await watch(o + '/text'), await watch(o + '/status/404'), await watch('ftp://x/')];
  },
  'globals-html-rewriter-and-caches': () => {
    const tryIt = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name; } };
    return [typeof HTMLRewriter, typeof caches, tryIt(() => new HTMLRewriter()), tryIt(() => caches.default)];
  },
};
