// Handler cases: what element, end tag, comment, doctype and document-end handlers see and do, in
// which order handlers run, asynchronous handlers, errors thrown by handlers, and argument checks.
import { err, html, tryAll } from './lib.js';

const on = (sel, h) => (log) => new HTMLRewriter().on(sel, h(log));
const tick = (ms) => new Promise((r) => setTimeout(r, ms));

export const HANDLER_CASES = {
  'element-attributes': [['<div A=1 b="2" C=\'3\' d data-Q="x&amp;y" b=dup>t</div>'], on('div', (log) => ({ element(e) {
    log.push([...e.attributes]);
    log.push([e.getAttribute('a'), e.getAttribute('B'), e.getAttribute('data-q'), e.getAttribute('zz'), e.hasAttribute('D'), e.hasAttribute('e')]);
    const it = e.attributes;
    log.push([typeof it.next, it[Symbol.iterator]() === it, Object.prototype.toString.call(it)]);
  } }))],
  'element-set-attributes': [['<div   a=1\n  B="2"  c=\'3\' d>t</div><p x=1>u</p>'], (log) => new HTMLRewriter()
    .on('div', { element(e) { e.setAttribute('a', 'x"y<&>\''); e.removeAttribute('b'); e.setAttribute('NEW', 'v'); e.setAttribute('d', 'now'); e.setAttribute('Data-Z', 5); log.push([...e.attributes]); } })
    .on('p', { element(e) { e.removeAttribute('x'); e.removeAttribute('nothing'); log.push([...e.attributes]); } })],
  'element-tag-name': [['<DIV id=1>a<b>b</b></DIV><p>c</p>'], (log) => new HTMLRewriter()
    .on('div', { element(e) { log.push(e.tagName); e.tagName = 'SECTION'; log.push(e.tagName); } })
    .on('b', { element(e) { e.tagName = 'strong'; e.onEndTag((t) => log.push(['end', t.name])); } })
    .on('p', { element(e) { e.onEndTag((t) => { t.name = 'q'; log.push(t.name); }); } })],
  'element-before-after': [['<p>x</p><br><i>y</i>'], (log) => new HTMLRewriter()
    .on('p', { element(e) { e.before('b1'); e.before('<b2>', { html: true }); e.after('a1'); e.after('<a2>', { html: true }); e.after('&"\'', {}); } })
    .on('br', { element(e) { e.before('[br-b]'); e.after('[br-a1]'); e.after('[br-a2]'); } })
    .on('i', { element(e) { e.before('<', { html: false }); e.after('>', { html: 0 }); } })],
  'element-prepend-append': [['<div>x</div><br><svg><path/></svg>'], (log) => new HTMLRewriter()
    .on('div', { element(e) { e.prepend('p1'); e.prepend('<p2>', { html: true }); e.append('x1'); e.append('<x2>', { html: true }); } })
    .on('br', { element(e) { e.prepend('no'); e.append('no'); e.setInnerContent('no'); } })
    .on('path', { element(e) { e.append('no'); e.after('[path-after]'); } })],
  'element-replace': [['<a>1</a><b>2<i>i</i></b><c>3</c><img src=x><e>5</e>'], (log) => new HTMLRewriter()
    .on('a', { element(e) { e.replace('<x>&', { html: true }); log.push(e.removed); } })
    .on('b', { element(e) { e.replace('<y>'); } })
    .on('i', { element(e) { log.push('i still seen'); } })
    .on('img', { element(e) { e.replace('[img]'); } })
    .on('e', { element(e) { e.replace('r1'); e.replace('r2'); e.before('b'); e.after('a'); } })],
  'element-inner-content': [['<div>x<b>y</b></div><section>z</section><nav>n</nav>'], (log) => new HTMLRewriter()
    .on('div', { element(e) { e.setInnerContent('<new>&', { html: true }); }, text(t) { log.push(['div text', t.text]); } })
    .on('b', { element(e) { log.push('b seen'); } })
    .on('section', { element(e) { e.prepend('P'); e.setInnerContent('I'); e.append('A'); e.prepend('Q'); } })
    .on('nav', { element(e) { e.append('A'); e.prepend('P'); e.setInnerContent('<I>'); e.append('B'); } })],
  'element-remove': [['<div>a<span>b</span><!--c-->c</div><p>after</p><ul><li>1</li></ul>'], (log) => new HTMLRewriter()
    .on('div', { element(e) { e.remove(); log.push(['removed', e.removed]); e.after('[after-div]'); e.before('[before-div]'); } })
    .on('span', { element(e) { e.before('SB'); e.after('SA'); log.push('span seen'); } })
    .on('li', { element(e) { e.removeAndKeepContent(); e.prepend('<'); e.append('>'); e.before('B'); e.after('A'); log.push(e.removed); } })],
  'element-namespaces': [['<svg><foreignObject><p>x</p></foreignObject><rect/><desc/></svg><math><mi><b>y</b></mi></math><svg><div>z</div><g/></svg><svg/><x>q</x>'],
    on('*', (log) => ({ element(e) { log.push([e.tagName, e.namespaceURI]); } }))],
  'element-void-end-tag': [['<br><img src=x><p>x</p><svg><path/><g></g></svg><input><frame><image>'],
    on('*', (log) => ({ element(e) { try { e.onEndTag(() => log.push(['end', e.tagName])); log.push([e.tagName, 'has end tag']); } catch (x) { log.push([e.tagName, err(x)]); } } }))],
  'element-undefined-props': [['<p>x</p><br/>'], on('*', (log) => ({ element(e) {
    log.push([e.tagName, typeof e.selfClosing, typeof e.canHaveContent, Object.prototype.toString.call(e), e.constructor.name]);
  } }))],
  'end-tag-mutations': [['<p id=1>a</p><p id=2>b</p><p id=3>c</P >'], (log) => new HTMLRewriter().on('p', { element(e) {
    const id = e.getAttribute('id');
    e.onEndTag((t) => {
      log.push([id, t.name, Object.prototype.toString.call(t)]);
      if (id === '1') { t.before('<b>', { html: true }); t.after('&'); }
      if (id === '2') { t.remove(); t.before('B'); t.after('A'); }
      if (id === '3') { t.name = 'DIV'; }
    });
  } })],
  'end-tag-order-with-append': [['<div>x</div>'], on('div', (log) => ({ element(e) {
    e.append('A'); e.after('<i>', { html: true });
    e.onEndTag((t) => { log.push(t.name); t.before('[eb]'); t.after('[ea]'); });
    e.tagName = 'span';
  } }))],
  'end-tag-implicit-pop': [['<ul><li>one<li>two</ul>after'], (log) => { let n = 0; return new HTMLRewriter().on('li', { element(e) {
    const k = ++n; if (k === 1) e.remove(); e.onEndTag((t) => log.push(['end', k, t.name]));
  } }); }],
  'end-tag-shared-mutations': [['<ul><li>one</ul><ol><li>two</ol><p>a<b>b</p>c'], (log) => new HTMLRewriter()
    .on('ul li', { element(e) { e.append('X'); e.tagName = 'q'; } })
    .on('ul', { element(e) { e.append('Y'); } })
    .on('ol li', { element(e) { e.remove(); } })
    .on('ol', { element(e) { e.append('Z'); } })
    .on('b', { element(e) { e.after('[b-after]'); e.onEndTag((t) => log.push(['b end', t.name])); } })],
  'end-tag-handler-replaced': [['<p>x</p>'], on('p', (log) => ({ element(e) {
    e.onEndTag((t) => { log.push('h1'); t.before('1'); });
    e.onEndTag((t) => { log.push('h2'); t.before('2'); });
  } }))],
  'end-tag-unclosed': [['<div><p>open'], (log) => new HTMLRewriter()
    .on('p', { element(e) { e.append('[app]'); e.onEndTag(() => log.push('end called')); } })
    .on('div', { element(e) { e.after('[after-div]'); } })],
  'comments': [['<!--top--><p>a<!--in p-->b</p><!--x-->'], (log) => new HTMLRewriter()
    .on('p', { comments(c) { log.push(['p', c.text, c.removed, Object.prototype.toString.call(c)]); c.text = 'changed'; c.before('[cb]'); c.after('<ca>', { html: true }); } })
    .onDocument({ comments(c) { log.push(['doc', c.text]); if (c.text === 'x') c.remove(); if (c.text === 'top') { c.replace('<b>', { html: true }); log.push([c.removed, c.text]); } } })],
  'comment-forms': [['<!x><?php y?></ z><![CDATA[q]]><!--a--!><!-->|<!--->|<!---->|<!--a--b-->|<!--a--->|<!--<!-- n -->|<svg><![CDATA[r<]]></svg>'],
    (log) => new HTMLRewriter().onDocument({ comments(c) { log.push(['c', c.text]); }, text(t) { if (t.text !== '|') log.push(['t', t.text, t.lastInTextNode]); } })],
  'comment-close-sequence': [['<!--c-->'], (log) => new HTMLRewriter().onDocument({ comments(c) { c.text = 'a-->b'; } })],
  'doctype': [['<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" \'http://www.w3.org/x.dtd\'><!doctype HTML SYSTEM "about:legacy-compat"><!DOCTYPE><!DOCTYPEfoo bar><!DOCTYPE HtMl><p><!DOCTYPE x>'],
    (log) => new HTMLRewriter().onDocument({ doctype(d) { log.push([d.name, d.publicId, d.systemId, Object.prototype.toString.call(d)]); } })],
  'document-end': [['<p>x</p>'], (log) => new HTMLRewriter().onDocument({ end(e) { log.push(Object.prototype.toString.call(e)); e.append('<E>'); e.append('<F>', { html: true }); } })
    .onDocument({ end(e) { e.append('[second]'); } })],
  'handler-order': [['<p>x<!--c--></p>'], (log) => new HTMLRewriter()
    .on('*', { element() { log.push('star element'); }, text(t) { log.push('star text ' + t.text); } })
    .onDocument({ text(t) { log.push('doc text ' + t.text); }, comments() { log.push('doc comment'); } })
    .on('p', { element() { log.push('p element'); }, text(t) { log.push('p text ' + t.text); }, comments() { log.push('p comment'); } })
    .on('p', { element() { log.push('p2 element'); } })],
  'document-handlers-order': [['<!doctype html><p>x<!--c--></p>'], (log) => new HTMLRewriter()
    .onDocument({ text(t) { log.push('t1:' + t.text); }, comments() { log.push('c1'); }, doctype() { log.push('d1'); }, end() { log.push('e1'); } })
    .onDocument({ text(t) { log.push('t2:' + t.text); }, comments() { log.push('c2'); }, doctype() { log.push('d2'); }, end() { log.push('e2'); } })
    .on('p', { text(t) { log.push('p1:' + t.text); }, comments() { log.push('pc1'); } })
    .on('p', { text(t) { log.push('p2:' + t.text); }, comments() { log.push('pc2'); } })],
  'handler-this': [['<p>x</p>'], (log) => new HTMLRewriter().on('p', new (class { constructor() { this.n = 'me'; } element() { log.push(this.n); } text() { log.push(this.n + ' text'); } })())],
  'async-element': [['<p>one</p><!--c--><p>two</p>'], (log) => new HTMLRewriter().on('p', {
    async element(e) { log.push('start ' + e.getAttribute('x')); await tick(5); e.setAttribute('x', '1'); log.push('done'); },
    async text(t) { await null; if (t.text) t.replace('[' + t.text + ']'); },
  }).onDocument({ comments(c) { log.push('comment after the first p'); } })],
  'async-mixed': [['<div><p>a</p><p>b</p></div>'], (log) => new HTMLRewriter()
    .on('p', { element(e) { e.onEndTag(async (t) => { await tick(2); t.after('!'); log.push('end ' + t.name); }); } })
    .on('div', { async element(e) { await tick(3); log.push('div'); e.prepend('[', {}); } })
    .on('*', { element(e) { log.push('star ' + e.tagName); return 5; } })],
  'handler-throws': [['<p>x</p>'], on('p', () => ({ element() { throw new RangeError('boom'); } }))],
  'handler-rejects': [['<p>x</p><p>y</p>'], on('p', () => ({ async element() { await null; throw new SyntaxError('async boom'); } }))],
  'handler-validation': (log) => {
    tryAll(log, [
      ['element not function', () => new HTMLRewriter().on('p', { element: 5 })],
      ['handlers number', () => new HTMLRewriter().on('p', 5)],
      ['handlers null', () => new HTMLRewriter().on('p', null)],
      ['text string', () => new HTMLRewriter().on('p', { text: 'no' })],
      ['doc end not function', () => new HTMLRewriter().onDocument({ end: {} })],
      ['doc handlers number', () => new HTMLRewriter().onDocument(7)],
      ['transform string', () => new HTMLRewriter().transform('x')],
      ['transform nothing', () => new HTMLRewriter().transform()],
      ['on returns this', () => { const r = new HTMLRewriter(); return r.on('p', {}) === r && r.onDocument({}) === r; }],
      ['toString', () => String(new HTMLRewriter())],
    ]);
    return 'validated';
  },
  'token-expired': async (log) => {
    let saved;
    const out = await new HTMLRewriter().on('p', { element(e) { saved = e; } }).transform(html(['<p>x</p>'])).text();
    tryAll(log, [['getAttribute later', () => saved.getAttribute('a')], ['tagName later', () => saved.tagName]]);
    return out;
  },
  'argument-checks': [['<p>x</p>'], on('p', (log) => ({ element(e) {
    tryAll(log, [
      ['setAttribute space', () => e.setAttribute('a b', 'x')],
      ['setAttribute empty', () => e.setAttribute('', 'x')],
      ['setAttribute equals', () => e.setAttribute('a=', 'x')],
      ['setAttribute slash', () => e.setAttribute('a/', 'x')],
      ['tagName empty', () => { e.tagName = ''; }],
      ['tagName space', () => { e.tagName = 'a b'; }],
      ['getAttribute spaced', () => e.getAttribute('A B')],
      ['before number', () => e.before(5)],
      ['before nothing', () => e.before()],
      ['before null', () => e.before(null)],
      ['setAttribute number', () => e.setAttribute('x', 5)],
      ['setAttribute no value', () => e.setAttribute('y')],
      ['getAttribute nothing', () => e.getAttribute()],
      ['hasAttribute nothing', () => e.hasAttribute()],
      ['onEndTag string', () => e.onEndTag('no')],
    ]);
  } }))],
  'transform-response': async (log) => {
    const r = new HTMLRewriter().on('p', { element(e) { e.setAttribute('a', 'b'); } })
      .transform(new Response('<p>s</p>', { status: 201, statusText: 'Made', headers: { 'content-type': 'text/html', 'x-a': 'b' } }));
    log.push([r.status, r.statusText, r.headers.get('x-a'), r.headers.get('content-type')]);
    const empty = new HTMLRewriter().on('p', {}).transform(new Response(null, { status: 204 }));
    log.push([empty.body === null, empty.status]);
    const rw = new HTMLRewriter().on('b', { element(e) { e.tagName = 'i'; } });
    log.push(await rw.transform(new Response('<b>1</b>')).text());
    log.push(await rw.transform(new Response('<b>2</b>')).text());
    return r.text();
  },
  'ambiguous-text-tag': [['<select><xmp><script>x</script></select>'], on('script', (log) => ({ element() { log.push('script'); } }))],
  'ambiguous-select-script-ok': [['<select><option>a<script>1<b></script></select><frameset><noframes>n</noframes>'],
    on('*', (log) => ({ element(e) { log.push(e.tagName); } }))],
  'modified-self-closing': [['<br/><img src=x /><p/>'], on('*', () => ({ element(e) { e.setAttribute('k', 'v'); } }))],
  'large-document': async (log) => {
    let doc = '<!DOCTYPE html><html><head><title>T &amp; t</title><script>if (a < b) {}</script></head><body>';
    for (let i = 0; i < 400; i++) doc += '<div class="item i' + (i % 7) + '" id=i' + i + '><h2>Item ' + i + '</h2><p>Lorem <b>ipsum</b> &mdash; ' + i + ' &lt; x.</p><a href="/items/' + i + '" class=link>more</a> <img src="/img/' + i + '.png"><br/></div>\n';
    doc += '</body></html>';
    const pieces = [];
    for (let i = 0; i < doc.length; i += 997) pieces.push(doc.slice(i, i + 997));
    let links = 0;
    const out = await new HTMLRewriter()
      .on('a[href]', { element(e) { links++; e.setAttribute('href', 'https://cdn.test' + e.getAttribute('href')); } })
      .on('div.i3 h2', { text(t) { if (t.text) t.replace(t.text.toUpperCase()); } })
      .on('img', { element(e) { e.after('<!--img-->', { html: true }); } })
      .transform(html(pieces)).text();
    log.push([links, out.length]);
    return out;
  },
};
