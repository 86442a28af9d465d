// EventSource, workerd's client of the HTML standard's server-sent events: `new EventSource(url)`
// fetches the URL (Accept: text/event-stream, Cache-Control: no-cache, Last-Event-ID once known),
// parses the stream into MessageEvents, and reconnects when the server ends it (after the `retry:`
// time, at least 1 s, as workerd waits); a failed fetch, a status other than 200 or another content
// type close it for good. `EventSource.from(stream)` parses a ReadableStream and never reconnects.
// Messages are workerd's.
(function (host, internal) {
  'use strict';
  const kUrl = Symbol('EventSource.url');
  const kState = Symbol('EventSource.readyState');
  const kCredentials = Symbol('EventSource.withCredentials');
  const kLastEventId = Symbol('EventSource.lastEventId');
  const kRetry = Symbol('EventSource.retry');
  const kAbort = Symbol('EventSource.abort');
  const kTimer = Symbol('EventSource.timer');
  const kHandlers = Symbol('EventSource.handlers');
  const [CONNECTING, OPEN, CLOSED] = [0, 1, 2];
  const MIN_RECONNECT_MS = 1000;
  const TOKEN = Symbol('from');
  const EventTarget = internal.builtin('EventTarget');
  const Event = internal.builtin('Event');

  class OpenEvent extends Event { }

  function errorEvent(error) { return new (internal.builtin('ErrorEvent'))('error', { error }); }

  // One event stream's parser: feed it text, it calls `dispatch(type, data, id)` per complete event.
  function newParser(es, origin) {
    let buffer = '';
    let data = '';
    let type = '';
    let idBuffer = es[kLastEventId];
    let bomChecked = false;
    function line(l) {
      if (l === '') {
        es[kLastEventId] = idBuffer;
        const d = data.endsWith('\n') ? data.slice(0, -1) : data;
        const t = type === '' ? 'message' : type;
        data = '';
        type = '';
        // (workerd dispatches nothing for empty data, also for a bare `data` line; after close()
        // it still dispatches the rest of the chunk being parsed)
        if (d === '') return;
        es.dispatchEvent(internal.newMessageEvent(t, d, origin, idBuffer));
        return;
      }
      if (l[0] === ':') return;
      const colon = l.indexOf(':');
      const field = colon < 0 ? l : l.slice(0, colon);
      let value = colon < 0 ? '' : l.slice(colon + 1);
      if (value[0] === ' ') value = value.slice(1);
      if (field === 'data') data += value + '\n';
      else if (field === 'event') type = value;
      else if (field === 'id') { if (!value.includes('\u0000')) idBuffer = value; } else if (field === 'retry') { if (/^[0-9]+$/.test(value)) es[kRetry] = Number(value); }
    }
    return {
      push(text) {
        if (!bomChecked && text.length > 0) { bomChecked = true; if (text[0] === '\ufeff') text = text.slice(1); }
        buffer += text;
        for (;;) {
          const m = /\r\n|\r|\n/.exec(buffer);
          if (m === null) return;
          // a CR at the very end may be the first half of a CRLF: wait for the next chunk
          if (m[0] === '\r' && m.index === buffer.length - 1) return;
          const l = buffer.slice(0, m.index);
          buffer = buffer.slice(m.index + m[0].length);
          line(l);
        }
      },
    };
  }

  // Reads `body` into the parser until it ends; resolves true when it ended, false when closed.
  function consume(es, body, origin) {
    const parser = newParser(es, origin);
    const decoder = new TextDecoder();
    const reader = body.getReader();
    const step = () => reader.read().then(({ done, value }) => {
      if (es[kState] === CLOSED) { reader.cancel().catch(() => { }); return false; }
      if (done) { parser.push(decoder.decode()); return true; }
      parser.push(decoder.decode(value, { stream: true }));
      return es[kState] === CLOSED ? (reader.cancel().catch(() => { }), false) : step();
    });
    return step();
  }

  function failFor(es, error) {
    if (es[kState] === CLOSED) return;
    es[kState] = CLOSED;
    es.dispatchEvent(errorEvent(error));
  }

  function connect(es) {
    const headers = { accept: 'text/event-stream', 'cache-control': 'no-cache' };
    if (es[kLastEventId] !== '') headers['last-event-id'] = es[kLastEventId];
    const abort = new AbortController();
    es[kAbort] = abort;
    internal.builtin('fetch')(es[kUrl], { headers, signal: abort.signal }).then((resp) => {
      if (es[kState] === CLOSED) { if (resp.body !== null) resp.body.cancel().catch(() => { }); return undefined; }
      const ct = resp.headers.get('content-type');
      let problem = null;
      // (workerd lets a 204 through to the content-type check, which it fails for want of one)
      if (resp.status !== 200 && resp.status !== 204) problem = 'The response status code was ' + resp.status + '.';
      else if (ct === null) problem = 'No content type header was present in the response.';
      else {
        const mime = internal.parseMimeType(ct);
        if (mime === null || mime.type + '/' + mime.subtype !== 'text/event-stream') problem = "The content type '" + ct + "' is invalid.";
      }
      if (problem !== null) {
        if (resp.body !== null) resp.body.cancel().catch(() => { });
        failFor(es, new DOMException(problem, 'AbortError'));
        return undefined;
      }
      es[kState] = OPEN;
      es.dispatchEvent(new OpenEvent('open'));
      return consume(es, resp.body, new (internal.builtin('URL'))(es[kUrl]).origin).then((ended) => {
        if (!ended || es[kState] === CLOSED) return;
        es[kState] = CONNECTING;
        es.dispatchEvent(errorEvent(new Error('The server disconnected.')));
        if (es[kState] === CLOSED) return;
        es[kTimer] = setTimeout(() => { es[kTimer] = null; if (es[kState] !== CLOSED) connect(es); }, Math.max(MIN_RECONNECT_MS, es[kRetry]));
      });
    }).catch((e) => failFor(es, e));
  }

  function handler(name) {
    return {
      get() { return this[kHandlers][name]; },
      set(fn) {
        const old = this[kHandlers][name];
        if (old !== null) this.removeEventListener(name, old);
        this[kHandlers][name] = typeof fn === 'function' ? fn : null;
        if (this[kHandlers][name] !== null) this.addEventListener(name, this[kHandlers][name]);
      },
      configurable: true,
      enumerable: true,
    };
  }

  class EventSource extends EventTarget {
    constructor(url, init = undefined) {
      super();
      this[kHandlers] = { open: null, message: null, error: null };
      this[kLastEventId] = '';
      this[kRetry] = MIN_RECONNECT_MS;
      this[kAbort] = null;
      this[kTimer] = null;
      this[kCredentials] = !!(init !== undefined && init !== null && init.withCredentials);
      if (url === TOKEN) { this[kUrl] = ''; this[kState] = OPEN; return; }
      if (arguments.length === 0) throw new TypeError("Failed to construct 'EventSource': constructor parameter 1 is not of type 'string'.");
      let parsed;
      try { parsed = new (internal.builtin('URL'))(String(url)); } catch {
        throw new DOMException("Cannot open an EventSource to '" + String(url) + "'. The URL is invalid.", 'SyntaxError');
      }
      this[kUrl] = parsed.href;
      this[kState] = CONNECTING;
      connect(this);
    }
    get url() { return this[kUrl]; }
    get readyState() { return this[kState]; }
    get withCredentials() { return this[kCredentials]; }
    close() {
      this[kState] = CLOSED;
      if (this[kTimer] !== null) { clearTimeout(this[kTimer]); this[kTimer] = null; }
      if (this[kAbort] !== null) { this[kAbort].abort(); this[kAbort] = null; }
    }
    static from(stream) {
      if (!internal.isInstance('ReadableStream', stream)) {
        throw new TypeError("Failed to execute 'from' on 'EventSource': parameter 1 is not of type 'ReadableStream'.");
      }
      const es = new EventSource(TOKEN);
      consume(es, stream, null).then((ended) => {
        if (ended) failFor(es, new Error('The server disconnected.'));
      }, (e) => failFor(es, e));
      return es;
    }
    get [Symbol.toStringTag]() { return 'EventSource'; }
  }
  Object.defineProperties(EventSource.prototype, { onopen: handler('open'), onmessage: handler('message'), onerror: handler('error') });
  for (const [k, v] of [['CONNECTING', CONNECTING], ['OPEN', OPEN], ['CLOSED', CLOSED]]) {
    Object.defineProperty(EventSource, k, { value: v, enumerable: true });
    Object.defineProperty(EventSource.prototype, k, { value: v, enumerable: true });
  }

  internal.defineGlobal('EventSource', EventSource);
});
