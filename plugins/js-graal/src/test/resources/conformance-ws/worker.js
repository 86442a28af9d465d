// The WebSocket conformance fixture (WebSocketConformanceTest.java): the same bundle runs on
// workerd (miniflare) and on cellgate's real cell host, and the answers must match. Each case is
// GET /case/<name> and exercises sockets entirely inside the runtime: both ends of a
// WebSocketPair, or a Durable Object's hibernatable socket whose client end the Worker accepts.
import { DurableObject } from 'cloudflare:workers';

const errOf = (fn) => { try { const r = fn(); return 'ok:' + String(r); } catch (e) { return e.name + ': ' + e.message; } };
const errName = (fn) => { try { fn(); return 'ok'; } catch (e) { return e.name; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pair = () => Object.values(new WebSocketPair());
const dataOf = (d) => (typeof d === 'string' ? d : [...new Uint8Array(d)].join('.'));

// Collects what a socket receives; `until(n)` waits for the n-th entry.
function recorder(ws) {
  const got = [];
  let wake = null;
  const push = (x) => { got.push(x); if (wake) wake(); };
  ws.addEventListener('message', (e) => push(['message', e.constructor.name, typeof e.data, dataOf(e.data)]));
  ws.addEventListener('close', (e) => push(['close', e.constructor.name, e.code, e.reason, e.wasClean]));
  const until = async (n) => {
    for (let i = 0; got.length < n && i < 200; i++) await new Promise((r) => { wake = r; setTimeout(r, 25); });
    return got;
  };
  return { got, until };
}

export class Room extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.events = [];
  }
  log(...parts) { this.events.push(parts); }
  lines() { return this.events; }

  async fetch(req) {
    const url = new URL(req.url);
    if (url.pathname === '/errors') return Response.json(this.errors());
    if (url.pathname === '/log') return Response.json(this.lines());
    if (req.headers.get('Upgrade') !== 'websocket') return new Response('expected Upgrade: websocket', { status: 426 });
    const [client, server] = pair();
    const tags = url.searchParams.getAll('tag');
    if (url.searchParams.get('early')) {
      // the attachment is set before acceptWebSocket (SPEC §16: it must be kept)
      server.serializeAttachment({ name: url.searchParams.get('name'), joined: 1, tags });
      this.ctx.acceptWebSocket(server, tags);
    } else {
      this.ctx.acceptWebSocket(server, tags);
      server.serializeAttachment({ name: url.searchParams.get('name'), joined: 1, tags });
    }
    if (url.searchParams.get('auto')) this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
    this.log('accepted', url.searchParams.get('name'), server.readyState);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws, msg) {
    const att = ws.deserializeAttachment();
    this.log('message', att.name, typeof msg, dataOf(msg));
    if (msg === 'state') {
      const auto = this.ctx.getWebSocketAutoResponse();
      ws.send(JSON.stringify({
        readyState: ws.readyState, all: this.ctx.getWebSockets().length, tagged: this.ctx.getWebSockets('a').length,
        untagged: this.ctx.getWebSockets('zzz').length, tags: this.ctx.getTags(ws), auto: auto && [auto.request, auto.response],
        autoAnswered: this.ctx.getWebSocketAutoResponseTimestamp(ws) instanceof Date, sameObject: this.ctx.getWebSockets('a')[0] === ws,
      }));
    } else if (msg === 'bump') {
      ws.serializeAttachment({ ...att, joined: att.joined + 1 });
      ws.send('bumped ' + JSON.stringify(ws.deserializeAttachment()));
    } else if (msg === 'broadcast') {
      for (const other of this.ctx.getWebSockets()) other.send('to all from ' + att.name);
    } else if (msg === 'close-me') {
      ws.close(4001, 'server says bye');
    } else {
      ws.send(typeof msg === 'string' ? 'echo ' + msg : msg);
    }
  }

  async webSocketClose(ws, code, reason, wasClean) {
    this.log('close', ws.deserializeAttachment().name, code, reason, wasClean);
  }

  errors() {
    const r = {};
    let [c, s] = pair();
    s.accept();
    r.afterAccept = errOf(() => this.ctx.acceptWebSocket(s));
    [c, s] = pair();
    this.ctx.acceptWebSocket(s);
    r.twice = errOf(() => this.ctx.acceptWebSocket(s));
    r.thenAccept = errOf(() => s.accept());
    r.sendOk = errOf(() => s.send('queued for nobody'));
    [c, s] = pair();
    r.tags11 = errOf(() => this.ctx.acceptWebSocket(s, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']));
    [c, s] = pair();
    r.longTag = errOf(() => this.ctx.acceptWebSocket(s, ['x'.repeat(257)]));
    [c, s] = pair();
    r.tag256 = errOf(() => this.ctx.acceptWebSocket(s, ['x'.repeat(256)]));
    r.notWs = errOf(() => this.ctx.acceptWebSocket({}));
    [c, s] = pair();
    this.ctx.acceptWebSocket(s);
    r.smallAttach = errOf(() => s.serializeAttachment('x'.repeat(3000)));
    r.hugeAttach = errName(() => s.serializeAttachment(new Uint8Array(1 << 20)));
    r.fnAttach = errName(() => s.serializeAttachment(() => 1));
    r.noAttach = errOf(() => { const [, b] = pair(); this.ctx.acceptWebSocket(b); return b.deserializeAttachment(); });
    r.plainAttach = errOf(() => { const [, b] = pair(); b.serializeAttachment({ q: 1 }); return JSON.stringify(b.deserializeAttachment()); });
    r.autoClear = errOf(() => { this.ctx.setWebSocketAutoResponse(); return this.ctx.getWebSocketAutoResponse(); });
    r.autoPair = errOf(() => { const p = new WebSocketRequestResponsePair('a', 'b'); return [p.request, p.response, p.constructor.name].join(); });
    r.autoBad = errOf(() => this.ctx.setWebSocketAutoResponse({ request: 'a', response: 'b' }));
    r.autoLong = errOf(() => this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('x'.repeat(2049), 'b')));
    r.getTagsPlain = errOf(() => { const [, b] = pair(); b.accept(); return this.ctx.getTags(b); });
    r.noSockets = this.ctx.getWebSockets('never').length;
    return r;
  }
}

async function roomSocket(env, room, query) {
  const resp = await env.ROOM.getByName(room).fetch('http://room/join?' + query, { headers: { Upgrade: 'websocket' } });
  const ws = resp.webSocket;
  const head = [resp.status, ws !== null && ws.constructor.name, ws !== null && ws.readyState,
    errOf(() => new Response(null, { status: 101, webSocket: ws }).status)];
  return { resp, ws, head };
}

const cases = {
  'ws-pair-basics': () => {
    const p = new WebSocketPair();
    const [client, server] = Object.values(p);
    return {
      keys: Object.keys(p), readyStates: [client.readyState, server.readyState], ctor: server.constructor.name,
      statics: [WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED, WebSocket.READY_STATE_OPEN],
      url: server.url, protocol: server.protocol, extensions: server.extensions, onmessage: 'onmessage' in server,
      binaryType: server.binaryType, isEventTarget: server instanceof EventTarget,
      sendBeforeAccept: errOf(() => server.send('x')), closeBeforeAccept: errOf(() => server.close(1000)),
      acceptTwice: errOf(() => { server.accept(); server.accept(); return 'fine'; }),
    };
  },
  'ws-pair-echo': async () => {
    const [client, server] = pair();
    server.accept();
    client.accept();
    server.addEventListener('message', (e) => server.send(typeof e.data === 'string' ? e.data.toUpperCase() : e.data));
    const s = recorder(server);
    const c = recorder(client);
    client.send('hi');
    client.send(new Uint8Array([1, 2, 3]));
    client.send(new Uint8Array([9, 8]).buffer);
    await c.until(3);
    client.close(4000, 'done');
    const afterClientClose = client.readyState;
    await s.until(4);
    const serverDuring = server.readyState;
    const sendAfterClose = errOf(() => client.send('late'));
    server.close(4002, 'ok');
    await c.until(4);
    return { server: s.got, client: c.got, afterClientClose, serverDuring, sendAfterClose, final: [client.readyState, server.readyState],
      serverSendAfter: errOf(() => server.send('late')), closeAgain: errOf(() => server.close(4003)) };
  },
  'ws-close-codes': () => {
    const r = {};
    for (const code of [undefined, 999, 1000, 1001, 1003, 1004, 1005, 1006, 1012, 1015, 1016, 2999, 3000, 4999, 5000]) {
      const [, server] = pair();
      server.accept();
      r[String(code)] = errOf(() => server.close(code, code === undefined ? undefined : 'r'));
    }
    r.reasonWithoutCode = errOf(() => { const [, b] = pair(); b.accept(); b.close(undefined, 'x'); });
    return r;
  },
  'ws-close-without-code': async () => {
    const [client, server] = pair();
    server.accept();
    client.accept();
    const c = recorder(client);
    server.close();
    return await c.until(1);
  },
  'ws-queued-until-accept': async () => {
    const [client, server] = pair();
    client.accept();
    client.send('a');
    client.send('b');
    client.close(1000, 'bye');
    await sleep(20);
    const s = recorder(server);
    await sleep(20);
    const before = s.got.length;
    server.accept();
    await s.until(3);
    return { before, got: s.got, readyState: server.readyState };
  },
  'ws-send-types': async () => {
    const [client, server] = pair();
    server.accept();
    client.accept();
    const c = recorder(client);
    server.send(5);
    server.send({ a: 1 });
    server.send(null);
    server.send(true);
    server.send(new Uint16Array([1, 258]));
    server.send(new DataView(new ArrayBuffer(3)));
    server.send('');
    server.send(new ArrayBuffer(0));
    const none = errOf(() => server.send());
    await c.until(8);
    return { none, got: c.got };
  },
  'ws-event-classes': () => ({
    message: errOf(() => { const e = new MessageEvent('message', { data: 'x' }); return [e.type, e.data, e instanceof Event].join(); }),
    close: errOf(() => { const e = new CloseEvent('close', { code: 4000, reason: 'r', wasClean: true }); return [e.type, e.code, e.reason, e.wasClean].join(); }),
    closeDefaults: errOf(() => { const e = new CloseEvent('close'); return [e.code, e.reason, e.wasClean].join(); }),
    error: errOf(() => { const e = new ErrorEvent('error', { message: 'boom' }); return [e.type, e.message].join(); }),
  }),
  'ws-response-rules': () => {
    const [client] = pair();
    return {
      status101WithoutSocket: errOf(() => new Response(null, { status: 101 })),
      socketWithout101: errOf(() => new Response(null, { status: 200, webSocket: client })),
      notASocket: errName(() => new Response(null, { status: 101, webSocket: {} })),
      ok: errOf(() => { const r = new Response(null, { status: 101, webSocket: client }); return [r.status, r.webSocket === client, r.ok].join(); }),
      bodyWith101: errOf(() => new Response('x', { status: 101, webSocket: client })),
      noSocket: new Response('x').webSocket,
    };
  },
  'ws-listeners': async () => {
    const [client, server] = pair();
    server.accept();
    client.accept();
    const got = [];
    server.addEventListener('message', (e) => got.push('once ' + e.data), { once: true });
    server.addEventListener('message', (e) => got.push('all ' + e.data + ' ' + (e.target === server)));
    server.addEventListener('message', { handleEvent(e) { got.push('object ' + e.data); } });
    client.send('1');
    client.send('2');
    await sleep(30);
    return got;
  },
  'ws-hibernation': async (env) => {
    const a = await roomSocket(env, 'hib-1', 'name=alice&tag=a&tag=b&auto=1');
    const b = await roomSocket(env, 'hib-1', 'name=bob&tag=c');
    a.ws.accept();
    b.ws.accept();
    const ra = recorder(a.ws);
    const rb = recorder(b.ws);
    a.ws.send('hello');
    a.ws.send(new Uint8Array([1, 2]));
    await ra.until(2);
    a.ws.send('ping');
    await ra.until(3);
    a.ws.send('state');
    a.ws.send('bump');
    await ra.until(5);
    b.ws.send('broadcast');
    await rb.until(1);
    await ra.until(6);
    a.ws.send('close-me');
    await ra.until(7);
    b.ws.close(1000, 'bob leaves');
    await sleep(100);
    const log = await (await env.ROOM.getByName('hib-1').fetch('http://room/log')).json();
    return { a: [a.head, ra.got], b: [b.head, rb.got], log };
  },
  'ws-attachment-before-accept': async (env) => {
    const a = await roomSocket(env, 'hib-4', 'name=early&tag=e&early=1');
    a.ws.accept();
    const ra = recorder(a.ws);
    a.ws.send('state');
    a.ws.send('bump');
    await ra.until(2);
    a.ws.close(1000, 'done');
    await sleep(100);
    const log = await (await env.ROOM.getByName('hib-4').fetch('http://room/log')).json();
    return { a: [a.head, ra.got], log };
  },
  'ws-hibernation-errors': async (env) => (await env.ROOM.getByName('hib-2').fetch('http://room/errors')).json(),
  'ws-stub-not-upgrade': async (env) => {
    const r = await env.ROOM.getByName('hib-3').fetch('http://room/join');
    return [r.status, r.webSocket, await r.text()];
  },
};

export default {
  async fetch(request, env) {
    const name = new URL(request.url).pathname.replace(/^\/case\//, '');
    const run = cases[name];
    if (!run) return new Response('no case ' + name, { status: 404 });
    return Response.json(await run(env, request));
  },
};
