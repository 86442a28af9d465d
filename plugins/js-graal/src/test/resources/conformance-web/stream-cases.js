// Streams cases of the conformance-web fixture: backpressure (desiredSize, ready, pull), BYOB
// readers, tee, pipes, transforms, queuing strategies, IdentityTransformStream, FixedLengthStream.
import { errOf, tick, enc, tag } from './util.js';

const race = (p) => Promise.race([p, new Promise((r) => setTimeout(() => r('PENDING'), 30))]);

export const streamCases = {
  'writable-desired-size': async () => {
    const log = [];
    let release;
    const ws = new WritableStream({ write(c) { log.push('w' + c); return new Promise((r) => { release = r; }); } }, { highWaterMark: 2 });
    const w = ws.getWriter();
    log.push(w.desiredSize);
    w.write('a'); log.push(w.desiredSize);
    w.write('b'); log.push(w.desiredSize);
    w.write('c'); log.push(w.desiredSize);
    await tick(); log.push(w.desiredSize);
    for (let i = 0; i < 3; i++) { release(); await tick(); log.push(w.desiredSize); }
    return log;
  },
  'writable-ready': async () => {
    const ws = new WritableStream({ write() { return new Promise(() => { }); } });
    const w = ws.getWriter();
    const a = w.desiredSize; w.write(1); const b = w.desiredSize; w.write(2); const c = w.desiredSize;
    const noStart = await race(w.ready.then(() => 'ready'));
    let go;
    const ws2 = new WritableStream({ start() { return new Promise((r) => { go = r; }); }, write() { return new Promise(() => { }); } });
    const w2 = ws2.getWriter();
    w2.write(1); w2.write(2);
    const beforeStart = [w2.desiredSize, await race(w2.ready.then(() => 'ready'))];
    go(); await tick();
    return { counts: [a, b, c], noStart, beforeStart, afterStart: [w2.desiredSize, await race(w2.ready.then(() => 'ready'))] };
  },
  'writable-strategies': async () => {
    const sized = new WritableStream({ write() { return new Promise(() => { }); } }, { highWaterMark: 10, size: (c) => c.length }).getWriter();
    sized.write('abcd');
    const s1 = sized.desiredSize;
    sized.write('efghijk');
    const bytes = new WritableStream({ write() { return new Promise(() => { }); } }, new ByteLengthQueuingStrategy({ highWaterMark: 10 })).getWriter();
    bytes.write(new Uint8Array(4)); bytes.write(new Uint8Array(4));
    const count = new WritableStream({ write() { return new Promise(() => { }); } }, new CountQueuingStrategy({ highWaterMark: 3 })).getWriter();
    count.write('x'); count.write('y');
    return [s1, sized.desiredSize, bytes.desiredSize, count.desiredSize,
      errOf(() => new WritableStream({}, { highWaterMark: -1 })), errOf(() => new WritableStream({}, { highWaterMark: NaN }))];
  },
  'writable-close-abort': async () => {
    const log = [];
    const ws = new WritableStream({ write(c) { log.push('w' + c); return new Promise((r) => setTimeout(r, 1)); }, close() { log.push('close'); } });
    const w = ws.getWriter();
    w.write(1); w.write(2);
    const closing = w.close();
    log.push('ds ' + w.desiredSize, await errOf(() => w.write(3)));
    await closing;
    log.push('closed', await errOf(() => w.closed), 'ds ' + w.desiredSize, await errOf(() => w.write(4)), await errOf(() => w.close()));
    const ws2 = new WritableStream({ abort(r) { log.push('sink abort ' + r); } });
    const w2 = ws2.getWriter();
    log.push(await errOf(() => w2.abort('because')), await errOf(() => w2.closed), await errOf(() => w2.write(1)), await errOf(() => w2.abort('again')), w2.desiredSize);
    let ctl;
    const ws3 = new WritableStream({ start(c) { ctl = c; } });
    const w3 = ws3.getWriter();
    const signal = [typeof ctl.signal, ctl.signal.aborted];
    await w3.abort(new RangeError('r'));
    signal.push(ctl.signal.aborted, ctl.signal.reason.name);
    return { log, signal };
  },
  'writable-errors': async () => {
    const sinkError = new WritableStream({ write(c) { throw new RangeError('sink ' + c); } }).getWriter();
    let ctl;
    const ctlError = new WritableStream({ start(c) { ctl = c; } }).getWriter();
    ctl.error(new TypeError('ctl'));
    const released = new WritableStream({}).getWriter();
    released.releaseLock();
    const locked = new WritableStream({});
    locked.getWriter();
    return {
      sink: [await errOf(() => sinkError.write(1)), await errOf(() => sinkError.write(2)), await errOf(() => sinkError.closed), sinkError.desiredSize],
      controller: [await errOf(() => ctlError.write(1)), await errOf(() => ctlError.closed), ctlError.desiredSize],
      released: [await errOf(() => released.write(1)), await errOf(() => released.closed), await errOf(() => released.ready), errOf(() => released.desiredSize)],
      locked: [errOf(() => locked.getWriter()), await errOf(() => locked.abort()), await errOf(() => locked.close()), locked.locked],
      writeNoArg: await errOf(async () => { const got = []; const w = new WritableStream({ write(c) { got.push(c === undefined ? 'undefined' : c); } }).getWriter(); await w.write(); await w.close(); return got; }),
    };
  },
  'readable-desired-pull': async () => {
    const log = [];
    let ctl;
    const rs = new ReadableStream({ start(c) { ctl = c; log.push('start' + c.desiredSize); }, pull(c) { log.push('pull' + c.desiredSize); } }, { highWaterMark: 3 });
    await tick();
    ctl.enqueue('a'); log.push(ctl.desiredSize);
    ctl.enqueue('b'); ctl.enqueue('c'); ctl.enqueue('d'); log.push(ctl.desiredSize);
    await tick();
    await rs.getReader().read(); log.push(ctl.desiredSize);
    let pulls = 0, i = 0;
    const filling = new ReadableStream({ pull(c) { pulls++; c.enqueue(i++); } }, { highWaterMark: 2 });
    await tick(); await tick();
    const filled = pulls;
    const r = filling.getReader();
    await r.read(); await tick();
    const afterQueuedRead = pulls;
    await r.read(); await r.read(); await tick();
    let zero = 0;
    const lazy = new ReadableStream({ pull(c) { zero++; c.enqueue(zero); } }, { highWaterMark: 0 });
    await tick();
    const zeroBefore = zero;
    await lazy.getReader().read();
    return { log, filled, afterQueuedRead, afterEmptyRead: pulls, zeroBefore, zeroAfter: zero };
  },
  'readable-strategies': async () => {
    let c1; new ReadableStream({ start(c) { c1 = c; } }, { highWaterMark: 10, size: (x) => x.length }); c1.enqueue('abc');
    let c2; new ReadableStream({ start(c) { c2 = c; } }, new CountQueuingStrategy({ highWaterMark: 4 })); c2.enqueue('abc');
    let c3; new ReadableStream({ start(c) { c3 = c; } }, new ByteLengthQueuingStrategy({ highWaterMark: 10 })); c3.enqueue(new Uint8Array(3));
    let c4; const bad = new ReadableStream({ start(c) { c4 = c; } }, { size: () => -1 });
    let threw = 'no'; try { c4.enqueue('x'); } catch (e) { threw = e.name; }
    let c5; new ReadableStream({ start(c) { c5 = c; } }, { highWaterMark: 1.5 });
    let c6; new ReadableStream({ start(c) { c6 = c; } }, { highWaterMark: '3' });
    return [c1.desiredSize, c2.desiredSize, c3.desiredSize, threw, await errOf(() => bad.getReader().read()), c5.desiredSize, c6.desiredSize,
      errOf(() => new ReadableStream({}, { highWaterMark: -1 })), errOf(() => new ReadableStream({}, { highWaterMark: Infinity }))];
  },
  'readable-errors': async () => {
    let c; new ReadableStream({ start(x) { c = x; } }); c.close();
    let e; const errored = new ReadableStream({ start(x) { e = x; } }); e.error(new RangeError('x'));
    const locked = new ReadableStream(); locked.getReader();
    return {
      closed: [errOf(() => c.close()), errOf(() => c.enqueue(1)), c.desiredSize],
      errored: [e.desiredSize, errOf(() => e.enqueue(1)), errOf(() => e.close()), await errOf(() => errored.getReader().closed)],
      locked: [await errOf(() => locked.cancel()), errOf(() => locked.getReader()), await errOf(() => locked.pipeTo(new WritableStream())), errOf(() => locked.tee())],
      mode: errOf(() => new ReadableStream().getReader({ mode: 'x' })),
      type: errOf(() => new ReadableStream({ type: 'x' })),
      byobOnDefault: errOf(() => new ReadableStream().getReader({ mode: 'byob' })),
      startThrows: errOf(() => new ReadableStream({ start() { throw new RangeError('in start'); } })),
      cancel: await errOf(async () => { const log = []; const rs = new ReadableStream({ start(x) { x.enqueue(1); }, cancel(r) { log.push('cancel ' + r); return 'x'; } }); log.push(await rs.cancel('why'), await rs.getReader().read()); return log; }),
    };
  },
  'readable-reader-release': async () => {
    const rs = new ReadableStream();
    const r = rs.getReader();
    const pending = r.read();
    const closed = r.closed;
    r.releaseLock();
    const s = new Response('abc').body;
    const reader = s.getReader();
    const first = await reader.read();
    const second = await reader.read();
    return [await errOf(() => pending), await errOf(() => closed), await errOf(() => r.read()), rs.locked, tag(r),
      [first.value.constructor.name, [...first.value], second.done], await errOf(() => reader.closed)];
  },
  'readable-byob': async () => {
    const bs = () => new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4, 5])); c.close(); } });
    const pulled = new ReadableStream({ type: 'bytes', pull(c) { const v = c.byobRequest.view; v[0] = 7; v[1] = 8; c.byobRequest.respond(2); } });
    const r0 = pulled.getReader({ mode: 'byob' });
    const p0 = await r0.read(new Uint8Array(4));
    const body = new Response('hello world').body.getReader({ mode: 'byob' });
    const b1 = await body.read(new Uint8Array(5));
    const b2 = await body.read(new Uint8Array(100));
    const b3 = await body.read(new Uint8Array(100));
    const r16 = bs().getReader({ mode: 'byob' });
    const u16 = await r16.read(new Uint16Array(2));
    const rest = await r16.read(new Uint8Array(4));
    const dv = await bs().getReader({ mode: 'byob' }).read(new DataView(new ArrayBuffer(3)));
    const min = await new Response('hello world').body.getReader({ mode: 'byob' }).read(new Uint8Array(8), { min: 8 });
    const auto = new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 8, pull(c) { c.byobRequest.view[0] = 42; c.byobRequest.respond(1); } });
    const a = await auto.getReader().read();
    let ctl; const manual = new ReadableStream({ type: 'bytes', start(c) { ctl = c; } });
    const mr = manual.getReader({ mode: 'byob' });
    const mp = mr.read(new Uint8Array(4), { min: 3 });
    ctl.enqueue(new Uint8Array([1])); ctl.enqueue(new Uint8Array([2, 3, 4, 5]));
    const m1 = await mp;
    const m2 = await mr.read(new Uint8Array(4));
    const buf = new Uint8Array(4);
    const detach = bs().getReader({ mode: 'byob' }).read(buf);
    const detachedAtOnce = buf.byteLength;
    await detach;
    const chunk = new Uint8Array([9, 9]);
    let c2; new ReadableStream({ type: 'bytes', start(c) { c2 = c; } });
    c2.enqueue(chunk);
    return {
      pulled: [p0.done, [...p0.value], p0.value.byteLength, p0.value.buffer.byteLength, tag(r0)],
      body: [new TextDecoder().decode(b1.value), new TextDecoder().decode(b2.value), b3.done, b3.value.byteLength],
      u16: [u16.value.constructor.name, [...u16.value], [...rest.value]],
      dataView: [dv.value.constructor.name, dv.value.byteLength],
      min: new TextDecoder().decode(min.value),
      auto: [[...a.value], a.value.buffer.byteLength],
      manual: [[...m1.value], [...m2.value]],
      detached: [detachedAtOnce, chunk.byteLength],
      request: (() => { let c; new ReadableStream({ type: 'bytes', start(x) { c = x; } }); return [c.byobRequest, tag(c), c.desiredSize]; })(),
    };
  },
  'readable-byob-errors': async () => {
    const bs = () => new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } });
    const released = bs().getReader({ mode: 'byob' }); released.releaseLock();
    let c; const s = new ReadableStream({ type: 'bytes', start(x) { c = x; } });
    const r = s.getReader({ mode: 'byob' });
    r.read(new Uint8Array(4));
    const rq = c.byobRequest;
    return {
      noView: await errOf(() => bs().getReader({ mode: 'byob' }).read()),
      zero: await errOf(() => bs().getReader({ mode: 'byob' }).read(new Uint8Array(0))),
      arrayBuffer: await errOf(() => bs().getReader({ mode: 'byob' }).read(new ArrayBuffer(4))),
      min0: await errOf(() => bs().getReader({ mode: 'byob' }).read(new Uint8Array(4), { min: 0 })),
      minBig: await errOf(() => bs().getReader({ mode: 'byob' }).read(new Uint8Array(4), { min: 5 })),
      released: await errOf(() => released.read(new Uint8Array(1))),
      tooMany: errOf(() => rq.respond(5)),
      zeroOpen: errOf(() => rq.respond(0)),
      enqueueString: errOf(() => c.enqueue('x')),
      enqueueEmpty: errOf(() => c.enqueue(new Uint8Array(0))),
    };
  },
  'readable-from': async () => {
    const gen = ReadableStream.from((async function* () { yield 'a'; yield 'b'; })());
    const r = gen.getReader();
    const arr = ReadableStream.from(['x', Promise.resolve('y')]);
    const got = [];
    for await (const v of arr) got.push(v);
    return [await r.read(), await r.read(), await r.read(), got, errOf(() => ReadableStream.from(5)), errOf(() => ReadableStream.from(null)),
      Object.getOwnPropertyNames(ReadableStream).sort()];
  },
  'readable-async-iteration': async () => {
    const rs = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } });
    const got = [];
    for await (const x of rs) got.push(x);
    const log = [];
    const rs2 = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); }, cancel(r) { log.push('cancel ' + r); } });
    for await (const x of rs2) { log.push(x); break; }
    log.push(rs2.locked);
    const log2 = [];
    const rs3 = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); }, cancel(r) { log2.push('cancel ' + r); } });
    for await (const x of rs3.values({ preventCancel: true })) { log2.push(x); break; }
    log2.push(rs3.locked);
    let text = '';
    for await (const chunk of new Response('streamed text').body) text += new TextDecoder().decode(chunk);
    return [got, rs.locked, log, log2, text];
  },
  'readable-tee': async () => {
    let i = 0;
    const rs = new ReadableStream({ pull(c) { if (i < 3) c.enqueue(i++); else c.close(); } });
    const [a, b] = rs.tee();
    const ra = a.getReader(); const rb = b.getReader();
    const x = [await ra.read(), await ra.read(), await ra.read(), await ra.read()];
    const y = [await rb.read(), await rb.read(), await rb.read(), await rb.read()];
    const log = [];
    const [c1, c2] = new ReadableStream({ cancel(r) { log.push('cancel ' + JSON.stringify(r)); } }).tee();
    await c1.cancel('x'); log.push('a');
    await c2.cancel('y'); log.push('b');
    let ctl;
    const [e1, e2] = new ReadableStream({ start(c) { ctl = c; } }).tee();
    ctl.error(new RangeError('t'));
    const body = new Response('tee bytes').body;
    const [t1, t2] = body.tee();
    return { values: [x, y], rs: rs.locked, log, errors: [await errOf(() => e1.getReader().read()), await errOf(() => e2.getReader().read())],
      bytes: [await new Response(t1).text(), await new Response(t2).text(), body.locked] };
  },
  'pipe-backpressure': async () => {
    let pulled = 0, i = 0;
    const rs = new ReadableStream({ pull(c) { pulled++; if (i < 10) c.enqueue(i++); else c.close(); } });
    const release = [];
    const seen = [];
    const ws = new WritableStream({ write(c) { seen.push(c); return new Promise((r) => release.push(r)); } }, { highWaterMark: 2 });
    const p = rs.pipeTo(ws);
    for (let k = 0; k < 5; k++) await tick();
    const held = [pulled, seen.length];
    while (release.length || seen.length < 10) { const r = release.shift(); if (r) r(); await tick(); }
    await p;
    return [held, pulled, seen, rs.locked, ws.locked];
  },
  'pipe-errors': async () => {
    const log = [];
    log.push(await errOf(() => new ReadableStream({ start(c) { c.error(new RangeError('src')); } }).pipeTo(new WritableStream({ abort(r) { log.push('abort ' + r.message); } }))));
    log.push(await errOf(() => new ReadableStream({ start(c) { c.enqueue(1); }, cancel(r) { log.push('cancel ' + r.message); } }).pipeTo(new WritableStream({ write() { throw new TypeError('dst'); } }))));
    const rs4 = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
    const ws4 = new WritableStream({ close() { log.push('close4'); } });
    log.push(await errOf(() => rs4.pipeTo(ws4, { preventClose: true })), ws4.locked, rs4.locked);
    const rs5 = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } });
    log.push(await errOf(() => rs5.pipeTo(new WritableStream({ write(ch) { log.push('w' + ch); }, close() { log.push('close5'); } }))));
    const ac = new AbortController(); ac.abort(new RangeError('pre'));
    log.push(await errOf(() => new ReadableStream().pipeTo(new WritableStream(), { signal: ac.signal })));
    log.push(await errOf(() => new ReadableStream().pipeTo({})));
    const lockedDest = new WritableStream(); lockedDest.getWriter();
    log.push(await errOf(() => new ReadableStream().pipeTo(lockedDest)));
    return log;
  },
  'pipe-through': async () => {
    const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
    const t = new TransformStream({ transform(ch, c) { c.enqueue(ch + ch); } });
    const out = rs.pipeThrough(t);
    return [out === t.readable, await out.getReader().read(), errOf(() => new ReadableStream().pipeThrough({})),
      errOf(() => new ReadableStream().pipeThrough({ readable: new ReadableStream() })),
      await new Response(new Response('upper me').body.pipeThrough(new TextDecoderStream()).pipeThrough(new TransformStream({ transform(s, c) { c.enqueue(s.toUpperCase()); } })).pipeThrough(new TextEncoderStream())).text()];
  },
  'transform-flow': async () => {
    const { readable, writable } = new TransformStream();
    const w = writable.getWriter();
    const l = [];
    let readyDone = false, p1done = false;
    const p1 = w.write('a'); l.push(w.desiredSize); w.write('b'); l.push(w.desiredSize);
    w.ready.then(() => { readyDone = true; });
    p1.then(() => { p1done = true; });
    await tick(); l.push(w.desiredSize, readyDone, p1done);
    const rd = readable.getReader(); const x = await rd.read(); l.push(x.value, w.desiredSize); await tick(); l.push(w.desiredSize, readyDone, p1done);
    const t2 = new TransformStream({}, { highWaterMark: 3 }, { highWaterMark: 2 });
    const w2 = t2.writable.getWriter();
    const l2 = [w2.desiredSize];
    for (const c of 'abcdef') { w2.write(c); l2.push(w2.desiredSize); }
    await tick(); l2.push(w2.desiredSize);
    const l3 = [];
    const t3 = new TransformStream({ start(c) { l3.push(c.desiredSize); }, transform(ch, c) { c.enqueue(ch); l3.push(c.desiredSize); } }, undefined, { highWaterMark: 2 });
    const w3 = t3.writable.getWriter(); await w3.write(1); await w3.write(2);
    const t4 = new TransformStream({ transform(ch, c) { c.enqueue(ch.toUpperCase()); }, flush(c) { c.enqueue('END'); } });
    const w4 = t4.writable.getWriter(); w4.write('a'); w4.write('b'); w4.close();
    const got = []; for await (const v of t4.readable) got.push(v);
    return { flow: l, strategies: l2, controller: l3, flush: got };
  },
  'transform-errors': async () => {
    let ctl;
    const t1 = new TransformStream({ start(c) { ctl = c; } }); const w1 = t1.writable.getWriter(); const r1 = t1.readable.getReader(); ctl.terminate();
    let ctl2;
    const t2 = new TransformStream({ start(c) { ctl2 = c; } }); const w2 = t2.writable.getWriter(); const r2 = t2.readable.getReader(); ctl2.error(new RangeError('te'));
    const log = [];
    const t3 = new TransformStream({ cancel(r) { log.push('tcancel ' + r); } }); const w3 = t3.writable.getWriter(); await t3.readable.cancel('rc');
    const t4 = new TransformStream({ transform() { throw new RangeError('tt'); } }); const w4 = t4.writable.getWriter(); const r4 = t4.readable.getReader(); const rp = errOf(() => r4.read());
    return {
      terminate: [await errOf(() => r1.read()), await errOf(() => w1.write(1)), await errOf(() => w1.closed)],
      error: [await errOf(() => r2.read()), await errOf(() => w2.write(1)), await errOf(() => w2.closed)],
      cancel: [...log, await errOf(() => w3.write(1)), await errOf(() => w3.closed)],
      throwing: [await errOf(() => w4.write(1)), await rp, await errOf(() => w4.closed)],
      types: [errOf(() => new TransformStream({ readableType: 'bytes' })), errOf(() => new TransformStream({ writableType: 'bytes' }))],
    };
  },
  'queuing-strategies': () => {
    const b = new ByteLengthQueuingStrategy({ highWaterMark: 16 });
    const c = new CountQueuingStrategy({ highWaterMark: 3 });
    return [b.highWaterMark, b.size(new Uint8Array(5)), c.highWaterMark, c.size('x'), typeof b.size, b.size === new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size,
      tag(b), tag(c), JSON.stringify(b), Object.keys(c), new CountQueuingStrategy({ highWaterMark: 1.5 }).highWaterMark, new CountQueuingStrategy({ highWaterMark: -1 }).highWaterMark,
      errOf(() => new CountQueuingStrategy()), errOf(() => new ByteLengthQueuingStrategy(5))];
  },
  'identity-transform': async () => {
    const accepts = async (chunk) => {
      const { readable, writable } = new IdentityTransformStream();
      const w = writable.getWriter(); const rd = readable.getReader();
      const wr = errOf(() => w.write(chunk)); const r1 = errOf(() => rd.read());
      await tick();
      return [await race(wr), await race(r1)];
    };
    const d = new IdentityTransformStream().writable.getWriter();
    const plain = [d.desiredSize]; d.write(new Uint8Array(3)); plain.push(d.desiredSize);
    const { readable, writable } = new IdentityTransformStream({ highWaterMark: 4 });
    const w = writable.getWriter();
    const flow = [w.desiredSize];
    let readyDone = false;
    w.write(new Uint8Array(3)); flow.push(w.desiredSize); w.write(new Uint8Array(3)); flow.push(w.desiredSize);
    w.ready.then(() => { readyDone = true; });
    await tick(); flow.push(readyDone);
    const rd = readable.getReader(); const x = await rd.read(); flow.push(x.value.byteLength, w.desiredSize); await tick(); flow.push(readyDone);
    await rd.read(); await tick(); flow.push(w.desiredSize);
    const ts = new IdentityTransformStream();
    return { string: await accepts('abc'), bytes: await accepts(new Uint8Array([1, 2])), buffer: await accepts(new Uint16Array([1]).buffer), object: await accepts({}),
      plain, flow, proto: [ts instanceof TransformStream, tag(ts), tag(ts.readable)],
      response: await new Response((() => { const t = new IdentityTransformStream(); const tw = t.writable.getWriter(); tw.write(enc.encode('ident')); tw.write(enc.encode('ity')); tw.close(); return t.readable; })()).text() };
  },
  'fixed-length-stream': async () => {
    const run = async (n, parts, close) => {
      const { readable, writable } = new FixedLengthStream(n);
      const w = writable.getWriter(); const rd = readable.getReader();
      const log = [];
      for (const p of parts) { const wp = errOf(() => w.write(enc.encode(p))); log.push(await race(errOf(() => rd.read())), await race(wp)); }
      if (close) { const cp = errOf(() => w.close()); log.push(await race(errOf(() => rd.read())), await race(cp)); }
      return log;
    };
    return {
      exact: await run(5, ['hel', 'lo'], true),
      tooMany: await run(3, ['hello'], false),
      tooFew: await run(10, ['hel'], true),
      bigint: errOf(() => typeof new FixedLengthStream(5n).readable),
      args: [errOf(() => new FixedLengthStream()), errOf(() => new FixedLengthStream(-1)), errOf(() => new FixedLengthStream('5'))],
      proto: [Object.getPrototypeOf(FixedLengthStream.prototype) === IdentityTransformStream.prototype, tag(new FixedLengthStream(1))],
      response: await (async () => { const { readable, writable } = new FixedLengthStream(2); const w = writable.getWriter(); w.write(new Uint8Array([65, 66])); w.close(); const r = new Response(readable); return [r.headers.get('content-length'), await r.text()]; })(),
    };
  },
  'fixed-length-response': () => {
    const { readable, writable } = new FixedLengthStream(11);
    const w = writable.getWriter();
    w.write(enc.encode('fixed ')); w.write(enc.encode('body')); w.write(enc.encode('!')); w.close();
    return new Response(readable);
  },
};
