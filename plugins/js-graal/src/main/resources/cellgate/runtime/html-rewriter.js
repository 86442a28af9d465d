// HTMLRewriter: Cloudflare's streaming HTML rewriter. The tokenizer, selector matching and the
// rewriting of bytes are Java (host/html/HtmlRewriterHost, with lol-html's lexeme boundaries); this
// file is the API: registrations, the token objects handed to handlers, and the pump that feeds the
// response body through the host and calls the handlers (awaiting those that return a promise, which
// pauses the stream as on workerd). A token object is valid only while its handler runs.
(function (host, internal) {
  'use strict';
  const kRegs = Symbol('HTMLRewriter.registrations');
  const kCtx = Symbol('HTMLRewriter.token');

  const H_ELEMENT = 1, H_COMMENTS = 2, H_TEXT = 4, H_DOCTYPE = 8, H_END = 16;
  const BEFORE = 0, AFTER = 1, PREPEND = 2, APPEND = 3, REPLACE = 4, INNER = 5;
  const NEED_INPUT = 0, DONE = -1, ERROR = -2, ELEMENT = 1, END_TAG = 2, TEXT = 3, COMMENT = 4, DOCTYPE = 5, DOC_END = 6;
  const FIELD = { 1: 'element', 3: 'text', 4: 'comments', 5: 'doctype', 6: 'end' };

  const parserError = (m) => new TypeError('Parser error: ' + m);
  const notType = (method, cls, n, type) => new TypeError("Failed to execute '" + method + "' on '" + cls + "': parameter " + n
    + ' is not of type ' + "'" + type + "'.");

  function live(token) {
    const ctx = token[kCtx];
    if (ctx === undefined || !ctx.valid) {
      throw new TypeError('This content token is no longer valid. Content tokens are only valid during the execution of the relevant content handler.');
    }
    return ctx.engine;
  }

  function content(cls, method, value, options) {
    if (value === undefined) throw notType(method, cls, 1, 'string or ReadableStream or Response');
    if ((typeof value === 'object' && value !== null) && (value instanceof ReadableStream || value instanceof Response)) {
      throw new TypeError('HTMLRewriter: ' + cls + '.' + method + '() with a ReadableStream or Response is not supported by cellgate; pass a string');
    }
    return [String(value), options !== undefined && options !== null && !!options.html];
  }

  function str(method, cls, n, v) {
    if (v === undefined) throw notType(method, cls, n, 'string');
    return String(v);
  }

  function checkName(name, what) {
    if (name.length === 0) throw parserError((what === 'tag' ? 'Tag' : 'Attribute') + " name can't be empty.");
    for (let i = 0; i < name.length; i++) {
      const c = name[i];
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '/' || c === '>' || (what === 'attribute' && c === '=')) {
        throw parserError('`' + c + '` character is forbidden in the ' + what + ' name');
      }
    }
    return name;
  }

  function make(proto, ctx) {
    const o = Object.create(proto);
    o[kCtx] = ctx;
    return o;
  }

  const AttributesIteratorProto = {
    next() { return this.i < this.items.length ? { value: this.items[this.i++], done: false } : { value: undefined, done: true }; },
    [Symbol.iterator]() { return this; },
    [Symbol.toStringTag]: 'AttributesIterator',
  };

  function insert(element, where, method, c, o) {
    const e = live(element);
    const [s, html] = content('Element', method, c, o);
    e.content(where, s, html);
    return element;
  }

  class Element {
    get tagName() { return live(this).tagName(); }
    set tagName(v) { live(this).setTagName(checkName(String(v), 'tag')); }
    get namespaceURI() { return live(this).namespaceURI(); }
    get removed() { return live(this).removed(); }
    get attributes() {
      const e = live(this);
      const items = [];
      for (let i = 0, n = e.attributeCount(); i < n; i++) items.push([e.attributeName(i), e.attributeValue(i)]);
      const it = Object.create(AttributesIteratorProto);
      it.items = items;
      it.i = 0;
      return it;
    }
    getAttribute(name) { return live(this).getAttribute(str('getAttribute', 'Element', 1, name)); }
    hasAttribute(name) { return live(this).hasAttribute(str('hasAttribute', 'Element', 1, name)); }
    setAttribute(name, value) {
      const e = live(this);
      const n = checkName(str('setAttribute', 'Element', 1, name), 'attribute');
      e.setAttribute(n, str('setAttribute', 'Element', 2, value));
      return this;
    }
    removeAttribute(name) { live(this).removeAttribute(str('removeAttribute', 'Element', 1, name)); return this; }
    before(c, o) { return insert(this, BEFORE, 'before', c, o); }
    after(c, o) { return insert(this, AFTER, 'after', c, o); }
    prepend(c, o) { return insert(this, PREPEND, 'prepend', c, o); }
    append(c, o) { return insert(this, APPEND, 'append', c, o); }
    replace(c, o) { return insert(this, REPLACE, 'replace', c, o); }
    setInnerContent(c, o) { return insert(this, INNER, 'setInnerContent', c, o); }
    remove() { live(this).remove(); return this; }
    removeAndKeepContent() { live(this).removeAndKeepContent(); return this; }
    onEndTag(handler) {
      const e = live(this);
      if (typeof handler !== 'function') throw notType('onEndTag', 'Element', 1, 'function');
      const id = e.onEndTag();
      if (id === 0) throw parserError('No end tag.');
      this[kCtx].endHandlers.set(id, handler);
    }
    get [Symbol.toStringTag]() { return 'Element'; }
  }

  // before/after/replace/remove of the tokens that are not elements, defined once for each class
  function mutators(cls, methods) {
    const where = { before: BEFORE, after: AFTER, replace: REPLACE };
    for (const m of methods) {
      const fn = m === 'remove'
        ? function () { live(this).remove(); return this; }
        : function (c, o) { const e = live(this); const [s, h] = content(cls.name, m, c, o); e.content(where[m], s, h); return this; };
      Object.defineProperty(fn, 'name', { value: m });
      Object.defineProperty(cls.prototype, m, { value: fn, writable: true, configurable: true, enumerable: false });
    }
  }

  class EndTag {
    get name() { return live(this).endTagName(); }
    set name(v) { live(this).setEndTagName(checkName(String(v), 'tag')); }
    get [Symbol.toStringTag]() { return 'EndTag'; }
  }
  mutators(EndTag, ['before', 'after', 'remove']);

  class Text {
    get text() { return live(this).text(); }
    get lastInTextNode() { return live(this).lastInTextNode(); }
    get removed() { return live(this).removed(); }
    get [Symbol.toStringTag]() { return 'Text'; }
  }
  mutators(Text, ['before', 'after', 'replace', 'remove']);

  class Comment {
    get text() { return live(this).commentText(); }
    set text(v) {
      const e = live(this);
      const t = String(v);
      if (t.includes('-->')) throw parserError("Comment text shouldn't contain comment closing sequence (`-->`).");
      e.setCommentText(t);
    }
    get removed() { return live(this).removed(); }
    get [Symbol.toStringTag]() { return 'Comment'; }
  }
  mutators(Comment, ['before', 'after', 'replace', 'remove']);

  class Doctype {
    get name() { return live(this).doctypeName(); }
    get publicId() { return live(this).doctypePublicId(); }
    get systemId() { return live(this).doctypeSystemId(); }
    get [Symbol.toStringTag]() { return 'Doctype'; }
  }

  class DocumentEnd {
    append(c, o) { const e = live(this); const [s, h] = content('DocumentEnd', 'append', c, o); e.content(APPEND, s, h); return this; }
    get [Symbol.toStringTag]() { return 'DocumentEnd'; }
  }

  const PROTOS = { 1: Element.prototype, 2: EndTag.prototype, 3: Text.prototype, 4: Comment.prototype, 5: Doctype.prototype, 6: DocumentEnd.prototype };

  function registration(handlers, fields, dict, method, selector) {
    const r = { selector, handlers, kinds: 0 };
    if (handlers === undefined || handlers === null) return r;
    if (typeof handlers !== 'object' && typeof handlers !== 'function') throw notType(method, 'HTMLRewriter', selector === null ? 1 : 2, dict);
    for (const [field, bit] of fields) {
      const v = handlers[field];
      if (v === undefined) continue;
      if (typeof v !== 'function') {
        throw new TypeError("Incorrect type for the '" + field + "' field on '" + dict + "': the provided value is not of type 'function'.");
      }
      r[field] = v;
      r.kinds |= bit;
    }
    return r;
  }
  const ELEMENT_FIELDS = [['element', H_ELEMENT], ['comments', H_COMMENTS], ['text', H_TEXT]];
  const DOCUMENT_FIELDS = [['doctype', H_DOCTYPE], ['comments', H_COMMENTS], ['text', H_TEXT], ['end', H_END]];

  const isPromise = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';

  function toBytes(chunk) {
    if (chunk instanceof Uint8Array) return chunk;
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
    if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    throw new TypeError('This TransformStream is being used as a byte stream, but received an object of non-ArrayBuffer type on its writable side.');
  }

  // Calls the handlers of the engine's current event; a promise when one of them returned a promise.
  function dispatch(engine, code, regs, endHandlers) {
    const ctx = { engine, valid: true, endHandlers };
    const token = make(PROTOS[code], ctx);
    if (code === END_TAG) {
      const id = engine.endTagId();
      const h = endHandlers.get(id);
      endHandlers.delete(id);
      return settle(ctx, h === undefined ? undefined : h.call(undefined, token));
    }
    const field = FIELD[code];
    const n = engine.handlerCount();
    const ids = [];
    for (let i = 0; i < n; i++) ids.push(engine.handler(i));
    for (let i = 0; i < ids.length; i++) {
      const r = regs[ids[i]];
      const result = r[field].call(r.handlers, token);
      if (isPromise(result)) {
        return (async () => {
          try {
            await result;
            for (let k = i + 1; k < ids.length; k++) {
              const rk = regs[ids[k]];
              const res = rk[field].call(rk.handlers, token);
              if (isPromise(res)) await res;
            }
          } finally {
            ctx.valid = false;
          }
        })();
      }
    }
    ctx.valid = false;
    return undefined;
  }
  function settle(ctx, result) {
    if (!isPromise(result)) {
      ctx.valid = false;
      return undefined;
    }
    return Promise.resolve(result).finally(() => { ctx.valid = false; });
  }

  class HTMLRewriter {
    [kRegs];
    constructor() {
      this[kRegs] = [];
    }
    on(selector, handlers) {
      const r = registration(handlers, ELEMENT_FIELDS, 'ElementContentHandlers', 'on', String(selector));
      const err = host.htmlSelectorError(r.selector);
      if (err !== null) throw parserError(err);
      this[kRegs].push(r);
      return this;
    }
    onDocument(handlers) {
      this[kRegs].push(registration(handlers, DOCUMENT_FIELDS, 'DocumentContentHandlers', 'onDocument', null));
      return this;
    }
    transform(response) {
      if (!(response instanceof Response)) throw notType('transform', 'HTMLRewriter', 1, 'Response');
      const init = { status: response.status, statusText: response.statusText, headers: response.headers };
      if (response.body === null) return new Response(null, init);
      const regs = this[kRegs].slice();
      const engine = host.newHtmlRewriter();
      for (const r of regs) {
        if (r.selector === null) engine.addDocument(r.kinds);
        else engine.addSelector(r.selector, r.kinds);
      }
      const reader = response.body.getReader();
      const endHandlers = new Map();
      const take = () => {
        const o = engine.takeOutput();
        return o === null ? null : new Uint8Array(new Uint8Array(new ArrayBuffer(o)));
      };
      const body = new ReadableStream({
        async pull(controller) {
          try {
            while (true) {
              const code = engine.next();
              if (code === NEED_INPUT) {
                const o = take();
                if (o !== null) {
                  controller.enqueue(o);
                  return;
                }
                const { done, value } = await reader.read();
                if (done) {
                  engine.end();
                } else {
                  const u8 = toBytes(value);
                  engine.write(u8.buffer, u8.byteOffset, u8.byteLength);
                }
              } else if (code === DONE) {
                const o = take();
                if (o !== null) controller.enqueue(o);
                controller.close();
                return;
              } else if (code === ERROR) {
                throw parserError(engine.error());
              } else {
                const p = dispatch(engine, code, regs, endHandlers);
                if (p !== undefined) await p;
              }
            }
          } catch (e) {
            reader.cancel(e).catch(() => {});
            throw e;
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return new Response(body, init);
    }
    get [Symbol.toStringTag]() { return 'HTMLRewriter'; }
  }

  internal.defineGlobal('HTMLRewriter', HTMLRewriter);
});
