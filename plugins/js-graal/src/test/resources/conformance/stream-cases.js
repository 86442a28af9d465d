// Streams and outbound fetch cases of the conformance fixture. Fetch cases call the origin named
// by the x-origin header (the harness's origin server).
const json = (v) => Response.json(v);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const errNameAsync = async (p) => { try { await p; return 'no error'; } catch (e) { return e.name; } };
const origin = (req) => req.headers.get('x-origin');

export const streamCases = {
  'stream-response': () => {
    const enc = new TextEncoder();
    let i = 0;
    const body = new ReadableStream({
      async pull(c) {
        await sleep(2);
        if (i < 3) c.enqueue(enc.encode('chunk' + i++ + ';'));
        else c.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  },
  'stream-start-enqueue': () => new Response(new ReadableStream({
    start(c) { c.enqueue(new TextEncoder().encode('all ')); c.enqueue(new Uint8Array([111, 107])); c.close(); },
  })),
  'stream-request-body': async (req) => {
    const reader = req.body.getReader();
    let bytes = 0;
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      chunks += value.byteLength > 0 ? 1 : 0;
    }
    return json({ bytes, sawChunks: chunks > 0, usedAfter: req.bodyUsed });
  },
  'stream-async-iterate': async (req) => {
    let text = '';
    const dec = new TextDecoder();
    for await (const chunk of req.body) text += dec.decode(chunk, { stream: true });
    return new Response(text.toUpperCase());
  },
  'stream-transform': () => {
    const { readable, writable } = new TransformStream({
      transform(chunk, c) { c.enqueue(new TextEncoder().encode(new TextDecoder().decode(chunk).toUpperCase())); },
    });
    const writer = writable.getWriter();
    (async () => {
      for (const part of ['streamed ', 'through ', 'a transform']) { await writer.write(new TextEncoder().encode(part)); await sleep(1); }
      await writer.close();
    })();
    return new Response(readable);
  },
  'stream-identity-transform': () => {
    const { readable, writable } = new TransformStream();
    const w = writable.getWriter();
    w.write(new TextEncoder().encode('identity'));
    w.close();
    return new Response(readable);
  },
  'stream-tee-pipe': async () => {
    const src = new Response('tee me').body;
    const [a, b] = src.tee();
    const ta = await new Response(a).text();
    const piped = b.pipeThrough(new TransformStream());
    return json({ a: ta, b: await new Response(piped).text(), locked: src.locked });
  },
  'stream-reader-api': async () => {
    const s = new Response('abc').body;
    const r = s.getReader();
    const first = await r.read();
    const second = await r.read();
    r.releaseLock();
    const s2 = new ReadableStream({ start(c) { c.error(new TypeError('boom')); } });
    return json({ isU8: first.value instanceof Uint8Array, first: [...first.value], done: second.done, locked: s.locked,
      lockedTwice: (() => { const x = new Response('x').body; x.getReader(); try { x.getReader(); return 'no error'; } catch (e) { return e.name; } })(),
      errored: await errNameAsync(s2.getReader().read()), from: await new Response(ReadableStream.from(['a', 'b'].map((x) => new TextEncoder().encode(x)))).text() });
  },
  'stream-writable': async () => {
    const got = [];
    const ws = new WritableStream({ write(chunk) { got.push(chunk); }, close() { got.push('closed'); } });
    const w = ws.getWriter();
    await w.write('one');
    await w.write('two');
    await w.close();
    return json(got);
  },
  'fetch-text': async (req) => {
    const r = await fetch(origin(req) + '/text');
    return json({ status: r.status, ok: r.ok, type: r.headers.get('content-type'), text: await r.text(), redirected: r.redirected,
      url: r.url === origin(req) + '/text' });
  },
  'fetch-echo-post': async (req) => {
    const r = await fetch(origin(req) + '/echo?x=1', { method: 'POST', body: 'payload', headers: { 'X-Custom': 'c' } });
    const echo = await r.json();
    return json({ method: echo.method, path: echo.path, custom: echo.headers['x-custom'], body: echo.body, type: echo.headers['content-type'] });
  },
  'fetch-request-object': async (req) => {
    const r = await fetch(new Request(origin(req) + '/echo', { method: 'PUT', body: new Uint8Array([104, 105]) }));
    const echo = await r.json();
    return json({ method: echo.method, body: echo.body });
  },
  'fetch-stream-upload': async (req) => {
    const enc = new TextEncoder();
    let i = 0;
    const body = new ReadableStream({ pull(c) { if (i < 3) c.enqueue(enc.encode('part' + i++)); else c.close(); } });
    const r = await fetch(origin(req) + '/echo', { method: 'POST', body, duplex: 'half' });
    return json({ body: (await r.json()).body });
  },
  'fetch-redirects': async (req) => {
    const o = origin(req);
    const follow = await fetch(o + '/redirect?to=/text');
    const manual = await fetch(o + '/redirect?to=/text', { redirect: 'manual' });
    const see303 = await fetch(o + '/redirect?to=/echo&status=303', { method: 'POST', body: 'dropped' });
    return json({
      follow: [follow.status, follow.redirected, new URL(follow.url).pathname, await follow.text()],
      manual: [manual.status, manual.redirected, new URL(manual.headers.get('location'), o).pathname],
      see303: (await see303.json()).method,
    });
  },
  'fetch-status': async (req) => {
    const r = await fetch(origin(req) + '/status/404');
    return json({ status: r.status, ok: r.ok, text: await r.text() });
  },
  'fetch-streamed-response': async (req) => {
    const r = await fetch(origin(req) + '/stream');
    let chunks = 0;
    let text = '';
    const dec = new TextDecoder();
    for await (const c of r.body) { chunks++; text += dec.decode(c, { stream: true }); }
    return json({ text, sawChunks: chunks > 0 });
  },
  'fetch-passthrough': async (req) => fetch(origin(req) + '/text'),
  'fetch-abort': async (req) => {
    const c = new AbortController();
    const p = fetch(origin(req) + '/slow', { signal: c.signal });
    setTimeout(() => c.abort(), 20);
    const pre = new AbortController();
    pre.abort();
    return json({ aborted: await errNameAsync(p), already: await errNameAsync(fetch(origin(req) + '/text', { signal: pre.signal })),
      timeout: await errNameAsync(fetch(origin(req) + '/slow', { signal: AbortSignal.timeout(20) })) });
  },
  'fetch-errors': async () => json({
    scheme: await errNameAsync(fetch('ftp://h.test/x')),
    badUrl: await errNameAsync(fetch('not a url')),
    refused: await errNameAsync(fetch('http://127.0.0.1:1/')),
  }),
};
